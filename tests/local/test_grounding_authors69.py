"""HALLUCINATION on false alarms of blind69 … blind71b (opened this round), the figure half of
each, tested in a domain of its own here. A record's range of two decimals joined by a
hyphen ("1.20-2.40", which a day/month/year reading took for a date); a figure said "about"
that is the record's rounded to its own place, one digit from it as every rounding is; a
count times a price the claim states, one digit from another row's price; an amount an
earlier sentence worked out, added on in a sentence whose language the rules do not read;
a record's thousands parted by a dot ("3.200 Stück"), the answer's by a comma; the balance
left of a total after the deposit; an equation's result in a line that opens with the name of
its first operand; a total itemised after its colon, one part counting another noun; an
English number word inside a claim in another language; opening hours said with a dash
("weekdays 7–7" of 07:00–19:00); a fraction of an inch restated in millimetres; a list whose
items each name their own value. Recall: each check still fires on the wrong figure beside
it."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed

from .conftest import found


def test_a_decimal_range_joined_by_a_hyphen(embed: Embed) -> None:
    pool = {"pool": "Lido B", "free_chlorine_ppm": 1.8, "target": "1.20-2.40", "checked": "2024-06-03"}
    q = "Is the chlorine in Lido B all right today?"
    said = "Free chlorine is 1.8 ppm, inside the target of 1.20–{} ppm."
    assert found(embed, q, said.format("2.40"), tool=pool).get("numbers", 0) == 0
    assert found(embed, q, said.format("2.80"), tool=pool).get("numbers", 0) >= 1


def test_a_figure_said_about_is_rounded(embed: Embed) -> None:
    loans = {"branch": "Elm Road", "month": "2024-03", "loans": 493, "new_members": 19}
    q = "How busy was the Elm Road library in March?"
    assert found(embed, q, "About 490 loans and 19 new members.", tool=loans).get("numbers", 0) == 0
    # Said as exact, one digit off is a copy gone wrong.
    assert found(embed, q, "It made 490 loans and 19 new members.", tool=loans).get("numbers", 0) >= 1


def test_a_count_times_a_price_near_another_row(embed: Embed) -> None:
    fees = "Campsite fees (CHF)\nPitch: tent; per night: 35\nPitch: campervan; per night: 40\nShowers free."
    q = "What do 4 nights on a tent pitch cost?"
    said = "A tent pitch is 35 per night, and 4 nights come to {} per stay."
    assert found(embed, q, said.format("140"), fees).get("numbers", 0) == 0
    assert found(embed, q, said.format("150"), fees).get("numbers", 0) >= 1


def test_an_earlier_working_added_on_in_an_unread_language(embed: Embed) -> None:
    tour = {"tour": "Mlima Safari", "price_per_person_kes": 1200, "transport_kes": 500}
    q = "Bei ya safari kwa watu 3 ni ngapi?"
    said = ("Bei ni KES 1,200 kwa kila mtu, kwa hiyo 3 × 1,200 = KES 3,600. "
            "Usafiri ni KES 500, hivyo jumla yake ni KES {}.")
    assert found(embed, q, said.format("4,100"), tool=tour).get("numbers", 0) == 0
    assert found(embed, q, said.format("4,700"), tool=tour).get("numbers", 0) >= 1


def test_thousands_parted_by_a_dot_in_the_record(embed: Embed) -> None:
    stock = "Lager Nord — Artikel 4471 (Regalwinkel)\nLagerbestand: 3.200 Stück\nMindestbestand: 800 Stück"
    q = "How many of item 4471 do we have in the north warehouse?"
    said = "Item 4471 (shelf brackets): {} units in stock, against a minimum of 800."
    assert found(embed, q, said.format("3,200"), stock).get("numbers", 0) == 0
    assert found(embed, q, said.format("3,400"), stock).get("numbers", 0) >= 1


def test_the_balance_left_after_a_deposit(embed: Embed) -> None:
    quote = ("Kitchen quote Q-77\nCabinets £4,900.00\nWorktops £1,580.00\nTotal £6,480.00\n"
             "Deposit 30% on acceptance (£1,944.00). Balance on completion.")
    q = "What do I still owe once the kitchen is fitted?"
    said = "Balance of {} due on completion."
    assert found(embed, q, said.format("£4,536.00"), quote).get("numbers", 0) == 0
    assert found(embed, q, said.format("£4,636.00"), quote).get("numbers", 0) >= 1


def test_an_equation_named_by_its_first_operand(embed: Embed) -> None:
    invoice = "Invoice 2231 — sound hire\nNet £1,250.00\nVAT 20% £250.00\nTotal £1,500.00"
    q = "Break the sound hire invoice down for me."
    assert found(embed, q, "Net £1,250 + VAT £250 = £1,500", invoice).get("bound", 0) == 0
    assert found(embed, q, "Net £1,250 + VAT £250 = £1,550", invoice).get("numbers", 0) >= 1


def test_a_total_itemised_after_its_colon(embed: Embed) -> None:
    trail = {"trail": "Fern Walk", "path_posts": 8, "gate": {"exists": True, "width_m": 3}}
    q = "How many lanterns for the Fern Walk? One per path post plus the gate, and two spares."
    said = "You'll need {} lanterns: 8 for the path posts, 1 for the gate and 2 spares for the porch."
    ok = found(embed, q, said.format("11"), tool=trail)
    assert ok.get("numbers", 0) == 0 and ok.get("bound", 0) == 0
    assert found(embed, q, said.format("12"), tool=trail).get("bound", 0) >= 1


def test_an_english_number_word_in_another_language(embed: Embed) -> None:
    kit = "Paket sewa tenda: tenda 4 orang, matras, kompor. Kompor gas tidak termasuk tabung."
    q = "Paketnya sudah termasuk tabung gas?"
    assert found(embed, q, "Tabung gas ten termasuk ring paket puniki.", kit).get("numbers", 0) == 0


def test_opening_hours_said_with_a_dash(embed: Embed) -> None:
    pool = {"site": "Harbour Baths", "lanes": 6, "hours": ["Mon–Fri 07:00–19:00"], "sauna": False}
    q = "When can I swim at the Harbour Baths on a weekday?"
    said = "The lanes are open on weekdays 7–{}, so an after-work swim is fine."
    assert found(embed, q, said.format("7"), tool=pool).get("numbers", 0) == 0
    assert found(embed, q, said.format("9"), tool=pool).get("numbers", 0) >= 1


def test_a_fraction_of_an_inch_restated_in_millimetres(embed: Embed) -> None:
    drill = {"part": "CB-118 hinge", "pilot_hole_in": 0.1875, "screw": "No. 8 x 3/4"}
    q = "What drill size for the CB-118 hinge pilot holes?"
    said = "Use a 3/16\" bit (about {} mm) for the pilot holes."
    assert found(embed, q, said.format("5"), tool=drill).get("numbers", 0) == 0
    assert found(embed, q, said.format("7"), tool=drill).get("numbers", 0) >= 1


def test_a_list_whose_items_name_their_own_values(embed: Embed) -> None:
    water = {"status": "FINAL", "sampled": "2024-05-14", "results": [
        {"code": "NO3", "value": 31, "unit": "mg/L", "ref": "0-50"}, {"code": "CAL", "value": 102, "unit": "mg/L", "ref": "20-200"},
        {"code": "FE", "value": 14, "unit": "µg/L", "ref": "0-200"}, {"code": "ZN", "value": 39, "unit": "µg/L", "ref": "0-3000"}]}
    q = "Borehole 3 water test — anything out of range?"
    said = "Nothing is out of range. CAL {} mg/L, iron 14 µg/L and zinc 39 µg/L are all within range."
    assert found(embed, q, said.format("102"), tool=water).get("bound", 0) == 0
    # The value of the row the item calls is still its own: another row's there is crossed.
    assert found(embed, q, said.format("31"), tool=water).get("bound", 0) >= 1
