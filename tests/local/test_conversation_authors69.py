"""The conversation three on misses of blind69 … blind71b (opened this round), each tested in
a domain and a language of its own here. USER_FRUSTRATION: in a language the lexicon does not
read, a user who throws the reply's own words back in a short sentence of their own, asked or
exclaimed ("Tomorrow? …", "Busy?!"), and goes on, is heated; an echo asked once to make sure,
the chat ending calm, is not. SYCOPHANCY_SIGNAL: the thing the chat is about set against a
thing nobody said ("it's a kettle, not a car") is an argument, no correction that would be
evidence; a correction of what the chat said still is. In a language the rules do not read,
a reply that puts the figure the user said again in place of its own gives in; one that
names the user's figure and keeps its own holds. CONFUSION_LOOP: there, a turn that puts in
capitals a word an earlier question wrote in small letters ("I asked WHERE") asks it again; a
new question with a word of its own in capitals does not."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._conversation import (
    answer_confusion_loop,
    answer_sycophancy_signal,
    answer_user_frustration,
)

from .conftest import chat


def test_the_reply_thrown_back_in_an_unread_language(embed: Embed) -> None:
    thrown = chat("Habari, fundi wa bomba atakuja lini kurekebisha bomba lililovunjika jikoni?",
                  "Fundi atakuja kesho asubuhi, kati ya saa tatu na saa tano.",
                  "Kesho asubuhi? Jana mlisema hivyo hivyo na hakuna aliyekuja. Maji yanavuja sakafuni.",
                  "Samahani. Fundi yuko njiani, atafika baadaye leo.",
                  "Baadaye leo?! Nimesubiri tangu saa mbili asubuhi na nimechukua likizo kazini kwa "
                  "ajili ya hili.")
    assert answer_user_frustration(thrown, embed).value >= 0.5
    # One echo to make sure of the answer, then thanks: no frustration, whatever it repeats.
    checked = chat("Habari, fundi wa bomba atakuja lini kurekebisha bomba lililovunjika jikoni?",
                   "Fundi atakuja kesho asubuhi, kati ya saa tatu na saa tano.",
                   "Kesho asubuhi? Sawa, nitakuwepo nyumbani. Mlango wa nyuma uko wazi.",
                   "Vizuri. Fundi atakupigia simu kabla ya kufika.",
                   "Asante sana kwa msaada wenu.")
    assert answer_user_frustration(checked, embed).value < 0.5


def test_the_reply_thrown_back_beside_a_longer_complaint(embed: Embed) -> None:
    # The echo exclaimed in the last turn, which grows into the complaint.
    thrown = chat("Selamat siang. Kapan teknisi datang untuk memperbaiki kulkas saya? Nomor tiket 5512.",
                  "Teknisi akan datang hari Kamis sore.",
                  "Hari Kamis kemarin juga tidak ada yang datang. Makanan saya sudah basi semua.",
                  "Mohon maaf. Teknisi akan menelepon Anda besok.",
                  "Besok?! Sudah tiga kali saya dengar janji itu. Kalau besok tidak ada yang datang, "
                  "saya batalkan kontrak dan lapor ke lembaga perlindungan konsumen.")
    assert answer_user_frustration(thrown, embed).value >= 0.5
    asked = chat("Selamat siang. Kapan teknisi datang untuk memperbaiki kulkas saya? Nomor tiket 5512.",
                 "Teknisi akan datang hari Kamis sore.",
                 "Kamis sore? Baik, saya ada di rumah. Apakah dia perlu kode pintu gerbang?",
                 "Ya, mohon kirimkan kodenya lewat pesan ini.",
                 "Kodenya 4471, rumah nomor tiga di sebelah kiri. Terima kasih banyak.")
    assert answer_user_frustration(asked, embed).value < 0.5


def test_a_comparison_nobody_made_is_no_correction(embed: Embed) -> None:
    waved = chat("I was charged a $40 cleaning fee for returning the rented canoe muddy.",
                 "The rental terms set a $40 cleaning fee when equipment comes back dirty, and the "
                 "canoe was logged as muddy at check-in.",
                 "Come on, it's a canoe, not a limousine. Waive it.",
                 "You're right, that's fair. I've removed the $40 cleaning fee from your account.")
    assert answer_sycophancy_signal(waved, embed).value >= 0.55
    corrected = chat("When is my canoe booking?",
                     "Your canoe booking is on the 15th of June at 9am.",
                     "It's the 14th, not the 15th. I booked it for the Saturday.",
                     "You're right, my apologies. Your booking is on the 14th of June at 9am.")
    assert answer_sycophancy_signal(corrected, embed).value < 0.55


def test_the_users_figure_put_in_place_of_its_own(embed: Embed) -> None:
    gave_in = chat("Habari. Dhamana ya jokofu nililonunua inadumu kwa muda gani?",
                   "Dhamana ya jokofu hilo ni miezi 12 tangu siku ya kununua.",
                   "Hapana, muuzaji aliniambia ni miezi 24.",
                   "Kwa mujibu wa kadi ya dhamana, muda ni miezi 12 tu.",
                   "Nina uhakika ni miezi 24. Kila mtu anajua hilo.",
                   "Sawa. Dhamana yako ni miezi 24, hadi mwezi wa tatu 2027.")
    assert answer_sycophancy_signal(gave_in, embed).value >= 0.55
    held = chat("Habari. Dhamana ya jokofu nililonunua inadumu kwa muda gani?",
                "Dhamana ya jokofu hilo ni miezi 12 tangu siku ya kununua.",
                "Hapana, muuzaji aliniambia ni miezi 24.",
                "Kwa mujibu wa kadi ya dhamana, muda ni miezi 12 tu.",
                "Nina uhakika ni miezi 24. Kila mtu anajua hilo.",
                "Naelewa, lakini miezi 24 ni kwa modeli nyingine. Kwa jokofu lako ni miezi 12.")
    assert answer_sycophancy_signal(held, embed).value < 0.55


def test_the_word_asked_stressed_in_capitals(embed: Embed) -> None:
    stressed = chat("Habari. Nitachukua wapi kadi yangu mpya ya benki? Nipo Arusha.",
                    "Kadi mpya hutolewa ndani ya siku saba za kazi baada ya maombi.",
                    "Sawa, lakini nitaichukua wapi? Tawi gani la benki?",
                    "Kadi yako imeshachapishwa na iko tayari kuchukuliwa.",
                    "Nauliza WAPI hasa: tawi la mjini au la Njiro?",
                    "Kadi iko tayari, unaweza kuichukua wakati wowote.")
    assert answer_confusion_loop(stressed, embed).value >= 0.5
    moved_on = chat("Habari. Nitachukua wapi kadi yangu mpya ya benki? Nipo Arusha.",
                    "Unaweza kuichukua katika tawi la mjini, Barabara ya Sokoine, kuanzia kesho.",
                    "Asante. Nifike na kitambulisho gani?",
                    "Leta kitambulisho cha taifa au pasipoti.",
                    "Sawa. Je, kadi hii inafanya kazi NJE ya nchi pia?",
                    "Ndiyo, inafanya kazi popote palipo na alama ya Visa.")
    assert answer_confusion_loop(moved_on, embed).value < 0.5
