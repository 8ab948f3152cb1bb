"""Month and weekday names in the languages users write in, and every script's digits.

Why: an answer in the user's language writes the context's ISO date in its own words
("1 Mac 2025", "2-da Juun", "martes 3 de junio de 2025", "18 korrik") and its numbers in
its own digits ("৯টা ১২ মিনিটে"). Read in English only, such a date is a bare number and
its month "a name the context never names", and a wrong one goes unseen. The tables
below let the date checks read it as the date it is, compared with the context's.

Each language's months are written out January first, one group a month, its forms
separated by spaces (the forms a date takes: nominative, genitive, partitive, locative;
the common abbreviations); its weekdays Monday first. A word two languages give to two
different months ("listopad": November in Polish and Czech, October in Croatian) reads as
either. Abbreviations that are common English words or names ("set", "ago", "out", "gen",
"mag", "ian") are left out: "set 3 alarms", "3 out of 5" are no dates. A weekday word that
is also a common word ("hafta", a week; "peer") is left out too. Forms are also kept without their accents
("miercoles", "Oktober"), as users type them.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from typing import Any

# --- digits ----------------------------------------------------------------------------

# Every decimal digit of every script (Bengali ৯, Devanagari ९, Arabic-Indic ٩, Persian ۹,
# Thai ๙, fullwidth ９ …) as its ASCII digit: numbers are then read, and compared with the
# context's, the same whichever script writes them. So are the Arabic script's percent sign,
# decimal point and thousands separator ("60٪" is a share, as "60%" is).
DIGITS = str.maketrans({**{chr(c): str(unicodedata.digit(chr(c))) for c in range(128, sys.maxunicode + 1)
                           if unicodedata.category(chr(c)) == "Nd"}, "\u066a": "%", "\u066b": ".", "\u066c": ","})


def ascii_digits(text: str) -> str:
    """The text with every script's decimal digits written as ASCII digits."""
    return text.translate(DIGITS) if not text.isascii() else text


# --- months ----------------------------------------------------------------------------

_MONTHS = {
    "spanish": "enero ene|febrero feb|marzo|abril abr|mayo|junio|julio|agosto|septiembre setiembre sept"
               "|octubre|noviembre|diciembre",
    "portuguese": "janeiro jan|fevereiro fev|março marco|abril abr|maio|junho|julho|agosto|setembro"
                  "|outubro|novembro|dezembro dez",
    "catalan": "gener|febrer|març|abril|maig|juny|juliol|agost|setembre|octubre|novembre|desembre",
    "french": "janvier janv|février févr|mars|avril avr|mai|juin|juillet juil|août|septembre"
              "|octobre|novembre|décembre déc",
    "italian": "gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre"
               "|novembre|dicembre",
    "romanian": "ianuarie|februarie|martie|aprilie|mai|iunie|iulie|august|septembrie"
                "|octombrie|noiembrie|decembrie",
    "german": "januar jänner|februar|märz|april|mai|juni|juli|august|september|oktober|november"
              "|dezember dez",
    "dutch": "januari|februari|maart|april|mei|juni|juli|augustus|september|oktober okt"
             "|november|december",
    "swedish": "januari|februari|mars|april|maj|juni|juli|augusti|september|oktober|november|december",
    "norwegian_danish": "januar|februar|marts mars|april|mai maj|juni|juli|august|september|oktober"
                        "|november|desember december",
    "finnish": "tammikuu tammikuuta tammikuun tammikuussa|helmikuu helmikuuta helmikuun helmikuussa"
               "|maaliskuu maaliskuuta maaliskuun maaliskuussa|huhtikuu huhtikuuta huhtikuun huhtikuussa"
               "|toukokuu toukokuuta toukokuun toukokuussa|kesäkuu kesäkuuta kesäkuun kesäkuussa"
               "|heinäkuu heinäkuuta heinäkuun heinäkuussa|elokuu elokuuta elokuun elokuussa"
               "|syyskuu syyskuuta syyskuun syyskuussa|lokakuu lokakuuta lokakuun lokakuussa"
               "|marraskuu marraskuuta marraskuun marraskuussa|joulukuu joulukuuta joulukuun joulukuussa",
    "estonian": "jaanuar jaanuaril|veebruar veebruaril|märts märtsil|aprill aprillil|mai mail"
                "|juuni juunil|juuli juulil|august augustil|september septembril|oktoober oktoobril"
                "|november novembril|detsember detsembril",
    "latvian": "janvāris janvārī janvāra|februāris februārī februāra|marts martā marta"
               "|aprīlis aprīlī aprīļa|maijs maijā maija|jūnijs jūnijā jūnija|jūlijs jūlijā jūlija"
               "|augusts augustā augusta|septembris septembrī septembra|oktobris oktobrī oktobra"
               "|novembris novembrī novembra|decembris decembrī decembra",
    "lithuanian": "sausis sausio|vasaris vasario|kovas kovo|balandis balandžio|gegužė gegužės"
                  "|birželis birželio|liepa liepos|rugpjūtis rugpjūčio|rugsėjis rugsėjo"
                  "|spalis spalio|lapkritis lapkričio|gruodis gruodžio",
    "polish": "styczeń stycznia|luty lutego|marzec marca|kwiecień kwietnia|maj maja|czerwiec czerwca"
              "|lipiec lipca|sierpień sierpnia|wrzesień września|październik października"
              "|listopad listopada|grudzień grudnia",
    "czech_slovak": "leden ledna január januára|únor února február februára|březen března marec marca"
                    "|duben dubna apríl apríla|květen května máj mája|červen června jún júna"
                    "|červenec července júl júla|srpen srpna august augusta|září september septembra"
                    "|říjen října október októbra|listopad listopadu november novembra"
                    "|prosinec prosince december decembra",
    "hungarian": "január|február|március|április|május|június|július|augusztus|szeptember"
                 "|október|november|december",
    "croatian": "siječanj siječnja|veljača veljače|ožujak ožujka|travanj travnja|svibanj svibnja"
                "|lipanj lipnja|srpanj srpnja|kolovoz kolovoza|rujan rujna|listopad listopada"
                "|studeni studenoga studenog|prosinac prosinca",
    "serbian_bosnian_latin": "januar januara|februar februara|mart marta|april aprila|maj maja"
                             "|jun juni juna|jul juli jula|avgust avgusta august augusta"
                             "|septembar septembra|oktobar oktobra|novembar novembra|decembar decembra",
    "serbian_cyrillic": "јануар јануара|фебруар фебруара|март марта|април априла|мај маја|јун јуна"
                        "|јул јула|август августа|септембар септембра|октобар октобра"
                        "|новембар новембра|децембар децембра",
    "bulgarian": "януари|февруари|март|април|май|юни|юли|август|септември|октомври|ноември|декември",
    "russian": "январь января январе|февраль февраля феврале|март марта марте|апрель апреля апреле"
               "|май мая мае|июнь июня июне|июль июля июле|август августа августе"
               "|сентябрь сентября сентябре|октябрь октября октябре|ноябрь ноября ноябре"
               "|декабрь декабря декабре",
    "ukrainian": "січень січня|лютий лютого|березень березня|квітень квітня|травень травня"
                 "|червень червня|липень липня|серпень серпня|вересень вересня|жовтень жовтня"
                 "|листопад листопада|грудень грудня",
    "greek": "ιανουάριος ιανουαρίου|φεβρουάριος φεβρουαρίου|μάρτιος μαρτίου|απρίλιος απριλίου"
             "|μάιος μαΐου μαίου|ιούνιος ιουνίου|ιούλιος ιουλίου|αύγουστος αυγούστου"
             "|σεπτέμβριος σεπτεμβρίου|οκτώβριος οκτωβρίου|νοέμβριος νοεμβρίου|δεκέμβριος δεκεμβρίου",
    "turkish": "ocak|şubat|mart|nisan|mayıs|haziran|temmuz|ağustos|eylül|ekim|kasım|aralık",
    "albanian": "janar|shkurt|mars|prill|maj|qershor|korrik|gusht|shtator|tetor|nëntor|dhjetor",
    "malay_indonesian": "januari|februari|mac maret|april|mei|jun juni|julai juli|ogos agustus"
                        "|september|oktober|november nopember|disember desember",
    "tagalog": "enero|pebrero|marso|abril|mayo|hunyo|hulyo|agosto|setyembre|oktubre|nobyembre|disyembre",
    "swahili": "januari|februari|machi|aprili|mei|juni|julai|agosti|septemba|oktoba|novemba|desemba",
    "somali": "janaayo jannaayo|febraayo feebarwari|maarso|abriil|maajo|juun|luulyo luuliyo"
              "|agoosto|sebteembar sebtember|oktoobar|nofeembar|diseembar",
    "yoruba": "ṣẹ́rẹ́|èrèlè|ẹrẹ̀nà|ìgbé|ẹ̀bibi|òkúdu|agẹmọ|ògún|owewe|ọ̀wàrà|bélú|ọ̀pẹ̀",
    "zulu": "januwari umasingana|februwari unhlolanja|mashi undasa|ephreli umbasa|meyi unhlaba"
            "|juni unhlangulana|julayi untulikazi|agasti uncwaba|septemba umandulo|okthoba umfumfu"
            "|novemba ulwezi|disemba uzibandlela",
    "basque": "urtarrila urtarrilaren|otsaila otsailaren|martxoa martxoaren|apirila apirilaren"
              "|maiatza maiatzaren|ekaina ekainaren|uztaila uztailaren|abuztua abuztuaren"
              "|iraila irailaren|urria urriaren|azaroa azaroaren|abendua abenduaren",
    "irish": "eanáir|feabhra|márta|aibreán|bealtaine|meitheamh|iúil|lúnasa|meán fómhair"
             "|deireadh fómhair|samhain|nollaig",
    "welsh": "ionawr|chwefror|mawrth|ebrill|mai|mehefin|gorffennaf|awst|medi|hydref|tachwedd|rhagfyr",
    # Hindi and Urdu typed in Latin letters write the English months as they say them.
    "hindi_urdu_latin": "janvari january|farvari farwari|maarch|aprail|mayi|joon jun|julai|agast"
                        "|sitambar|aktubar aktoobar|navambar nawambar|disambar",
}

# Vietnamese numbers its months ("tháng 3" is March), read by a pattern of its own
# (``NUMBERED_MONTH`` below), as Chinese, Japanese and Korean do ("3月", "3월").

_WEEKDAYS = {
    "english_plural": "mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays",
    "spanish": "lunes|martes|miércoles|jueves|viernes|sábado sábados|domingo domingos",
    "portuguese": "segunda segunda-feira|terça terça-feira|quarta quarta-feira|quinta quinta-feira"
                  "|sexta sexta-feira|sábado|domingo",
    "catalan": "dilluns|dimarts|dimecres|dijous|divendres|dissabte|diumenge",
    "french": "lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche",
    "italian": "lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica",
    "romanian": "luni|marți marţi|miercuri|joi|vineri|sâmbătă|duminică",
    "german": "montag|dienstag|mittwoch|donnerstag|freitag|samstag sonnabend|sonntag",
    "dutch": "maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag",
    "swedish_norwegian_danish": "måndag mandag|tisdag tirsdag|onsdag|torsdag|fredag|lördag lørdag"
                                "|söndag søndag",
    "finnish": "maanantai maanantaina|tiistai tiistaina|keskiviikko keskiviikkona|torstai torstaina"
               "|perjantai perjantaina|lauantai lauantaina|sunnuntai sunnuntaina",
    "estonian": "esmaspäev esmaspäeval|teisipäev teisipäeval|kolmapäev kolmapäeval"
                "|neljapäev neljapäeval|reede reedel|laupäev laupäeval|pühapäev pühapäeval",
    "latvian": "pirmdiena pirmdien|otrdiena otrdien|trešdiena trešdien|ceturtdiena ceturtdien"
               "|piektdiena piektdien|sestdiena sestdien|svētdiena svētdien",
    "lithuanian": "pirmadienis pirmadienį|antradienis antradienį|trečiadienis trečiadienį"
                  "|ketvirtadienis ketvirtadienį|penktadienis penktadienį|šeštadienis šeštadienį"
                  "|sekmadienis sekmadienį",
    "polish": "poniedziałek|wtorek|środa środę|czwartek|piątek|sobota sobotę|niedziela niedzielę",
    "czech_slovak": "pondělí pondelok|úterý utorok|středa středu streda|čtvrtek štvrtok"
                    "|pátek piatok|sobota|neděle neděli nedeľa",
    "hungarian": "hétfő hétfőn|kedd kedden|szerda szerdán|csütörtök csütörtökön|péntek pénteken"
                 "|szombat szombaton|vasárnap",
    "croatian_serbian_latin": "ponedjeljak ponedeljak|utorak|srijeda sreda|četvrtak|petak|subota"
                              "|nedjelja nedelja",
    "serbian_cyrillic": "понедељак|уторак|среда|четвртак|петак|субота|недеља",
    "bulgarian": "понеделник|вторник|сряда|четвъртък|петък|събота|неделя",
    "russian": "понедельник|вторник|среда среду|четверг|пятница пятницу|суббота субботу"
               "|воскресенье",
    "ukrainian": "понеділок|вівторок|середа середу|четвер|п'ятниця п'ятницю|субота суботу|неділя неділю",
    "greek": "δευτέρα|τρίτη|τετάρτη|πέμπτη|παρασκευή|σάββατο|κυριακή",
    "turkish": "pazartesi|salı|çarşamba|perşembe|cuma|cumartesi|pazar",
    "albanian": "e hënë|e martë|e mërkurë|e enjte|e premte|e shtunë|e diel",
    "malay_indonesian": "isnin senin|selasa|rabu|khamis kamis|jumaat jumat|sabtu|ahad minggu",
    "tagalog": "lunes|martes|miyerkules|huwebes|biyernes|sabado|linggo",
    "swahili": "jumatatu|jumanne|jumatano|alhamisi|ijumaa|jumamosi|jumapili",
    "somali": "isniin|talaado|arbaco|khamiis|jimco|sabti|axad",
    "yoruba": "ọjọ́ ajé|ọjọ́ ìṣẹ́gun|ọjọ́rú|ọjọ́bọ̀|ọjọ́ ẹtì|ọjọ́ àbámẹ́ta|ọjọ́ àìkú",
    "zulu": "umsombuluko|ulwesibili|ulwesithathu|ulwesine|ulwesihlanu|umgqibelo|isonto",
    "vietnamese": "thứ hai|thứ ba|thứ tư|thứ năm|thứ sáu|thứ bảy|chủ nhật",
    "basque": "astelehena|asteartea|asteazkena|osteguna|ostirala|larunbata|igandea",
    "irish": "dé luain|dé máirt|dé céadaoin|déardaoin|dé haoine|dé sathairn|dé domhnaigh",
    "welsh": "dydd llun|dydd mawrth|dydd mercher|dydd iau|dydd gwener|dydd sadwrn|dydd sul",
    "hindi_urdu_latin": "somvar somwar pir|mangalvar mangalwar|budhvar budhwar"
                        "|guruvar guruwar brihaspativar jumeraat jumerat|shukravar shukrawar juma jumma"
                        "|shanivar shaniwar|ravivar raviwar itvar itwar itwaar",
}


# Groups whose two words are one name, not two forms.
_TWO_WORD_NAMES = frozenset(
    """meán fómhair|deireadh fómhair|e hënë|e martë|e mërkurë|e enjte|e premte|e shtunë|e diel
    |ọjọ́ ajé|ọjọ́ ìṣẹ́gun|ọjọ́ ẹtì|ọjọ́ àbámẹ́ta|ọjọ́ àìkú|thứ hai|thứ ba|thứ tư|thứ năm|thứ sáu
    |thứ bảy|chủ nhật|dé luain|dé máirt|dé céadaoin|dé haoine|dé sathairn|dé domhnaigh
    |dydd llun|dydd mawrth|dydd mercher|dydd iau|dydd gwener|dydd sadwrn|dydd sul""".replace("\n", "")
    .replace("    ", "").split("|"))


def _bare(word: str) -> str:
    """The word without its accents ("miércoles" as "miercoles")."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def _table(groups: dict[str, str]) -> dict[str, frozenset[int]]:
    table: dict[str, set[int]] = {}
    for line in groups.values():
        for i, group in enumerate(line.split("|")):
            # A form of two words ("meán fómhair", "thứ hai") is one name.
            forms = [group] if group in _TWO_WORD_NAMES else group.split()
            for form in forms:
                for w in {form, _bare(form)}:
                    table.setdefault(unicodedata.normalize("NFC", w), set()).add(i + 1)
    return {w: frozenset(n) for w, n in table.items()}


MONTH_WORDS: dict[str, frozenset[int]] = _table(_MONTHS)
WEEKDAY_WORDS: dict[str, frozenset[int]] = _table(_WEEKDAYS)  # 1 is Monday


def _alternation(words: dict[str, frozenset[int]]) -> str:
    """The words as one pattern, shaped as their trie: a flat alternation of a thousand
    words is tried word by word at every position of every text the judge reads, and made
    each run-level answer about twice as slow in its rules. At each letter the longer words
    are tried first, as in an alternation sorted longest first; a space matches any run of
    white space."""
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def shaped(node: dict[str, Any]) -> str:
        branches = [(r"\s+" if ch == " " else re.escape(ch)) + shaped(child)
                    for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return shaped(trie)


MONTH_ALT = _alternation(MONTH_WORDS)
WEEKDAY_ALT = _alternation(WEEKDAY_WORDS)
_WORD_END = r"(?![^\W\d_])"  # \b is not enough after a combining accent
MONTH_WORD = re.compile(rf"(?<![^\W\d_])(?:{MONTH_ALT}){_WORD_END}", re.IGNORECASE)
WEEKDAY_WORD = re.compile(rf"(?<![^\W\d_])(?:{WEEKDAY_ALT}){_WORD_END}", re.IGNORECASE)


def month_of(word: str) -> frozenset[int]:
    """The months a month word may be (empty if it is none)."""
    w = unicodedata.normalize("NFC", re.sub(r"\s+", " ", word.lower()))
    return MONTH_WORDS.get(w) or MONTH_WORDS.get(_bare(w), frozenset())


def weekday_of(word: str) -> frozenset[int]:
    """The weekdays (0 is Monday) a weekday word may be (empty if it is none)."""
    w = unicodedata.normalize("NFC", re.sub(r"\s+", " ", word.lower()))
    found = WEEKDAY_WORDS.get(w) or WEEKDAY_WORDS.get(_bare(w), frozenset())
    return frozenset(d - 1 for d in found)

