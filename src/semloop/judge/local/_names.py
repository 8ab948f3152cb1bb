"""HALLUCINATION's names and places: a name the context gives in any of its forms
(accents, acronyms, codes, a people's place), and one it gives with another word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ._claims import _CURRENCY_NAMES, _ISO_CURRENCIES, _MARK_CODES, _spells, quantities, stem
from ._claims import _FUNCTION as _FUNCTION_WORDS
from ._records import _person_keys
from ._tokenizer import strip_accents
from ._wording import _question

if TYPE_CHECKING:
    from ._grounding import _Evidence


# A country or continent and the words for its people: one place in several forms.
_PEOPLE_FORMS = [g.split("|") for g in (
    "united states|american|americans|america|usa|u.s|us|u.s.a", "united kingdom|british|britain|uk",
    "england|english", "scotland|scottish|scot|scots", "wales|welsh", "ireland|irish",
    "france|french", "germany|german|germans", "italy|italian|italians", "spain|spanish",
    "portugal|portuguese", "netherlands|dutch|holland", "belgium|belgian", "denmark|danish|dane",
    "sweden|swedish|swede", "norway|norwegian", "finland|finnish|finn", "iceland|icelandic",
    "poland|polish|pole", "austria|austrian", "switzerland|swiss", "greece|greek", "russia|russian",
    "ukraine|ukrainian", "hungary|hungarian", "czech republic|czech", "croatia|croatian",
    "serbia|serbian", "romania|romanian", "turkey|turkish", "israel|israeli", "egypt|egyptian",
    "india|indian", "pakistan|pakistani", "china|chinese", "japan|japanese", "korea|korean",
    "south korea|south korean", "vietnam|vietnamese", "thailand|thai", "indonesia|indonesian",
    "philippines|filipino|philippine", "australia|australian", "new zealand|new zealander",
    "canada|canadian", "mexico|mexican", "brazil|brazilian", "argentina|argentine|argentinian",
    "chile|chilean", "peru|peruvian", "colombia|colombian", "cuba|cuban", "jamaica|jamaican",
    "nigeria|nigerian", "kenya|kenyan", "south africa|south african", "ethiopia|ethiopian",
    "iran|iranian|persian", "iraq|iraqi", "saudi arabia|saudi", "africa|african",
    "europe|european", "asia|asian")]
_PEOPLES = {form: tuple(group) for group in _PEOPLE_FORMS for form in group}
_PEOPLE = re.compile(r"(?<![\w.])(?:" + "|".join(
    re.escape(f) for f in sorted(_PEOPLES, key=len, reverse=True)) + r")(?![\w])")
# An acronym spells the first letters of a name's words, "and"/"of" skipped: "NASA" for
# National Aeronautics and Space Administration, "OKC" for Oklahoma City, "WWII".
_SPELT = re.compile(r"[A-Z][\w'-]*(?:\s+(?:(?:and|of|the|for|&)\s+)?[A-Z][\w'-]*)+")
_ACRONYM_LETTERS = range(2, 7)


def _peoples(text: str) -> frozenset[str]:
    """The words of every form of each people or place the (lower-cased) text names."""
    return frozenset(w for m in _PEOPLE.finditer(text) for form in _PEOPLES[m.group(0)]
                     for w in form.split())


def _acronym_found(term: str, claim: str, ev: _Evidence) -> bool:
    """Whether the claim writes the term in capitals ("NASA", "U.S.") and it spells a name
    of the texts."""
    letters = term.replace(".", "")
    if (not letters.isalpha() or len(letters) not in _ACRONYM_LETTERS
            or not re.search(rf"(?<![\w.])(?-i:{re.escape(term.upper())})", claim)):
        return False
    for m in _SPELT.finditer("\n".join(ev.texts)):
        words = [w.lower() for w in m.group(0).split() if w not in ("and", "of", "the", "for", "&")]
        if any(_spells(letters, words[i:j]) for i in range(len(words))
               for j in range(i + 2, min(len(words), i + len(letters)) + 1)):
            return True
    return False


# A code the texts write in capitals: "AMS", "CET", "HMRC".
_CAPITALS_CODE = re.compile(r"(?<![\w-])[A-Z]{2,5}(?![\w-])")
_TITLE_RUN = re.compile(r"[A-Z][\w'-]*(?:\s+(?:(?:and|of|the|for|&)\s+)?[A-Z][\w'-]*)*")


def _in_order(letters: str, word: str) -> bool:
    rest = iter(word)
    return all(c in rest for c in letters)


def _abbreviates(code: str, words: Sequence[str]) -> bool:
    """Whether the code is the words shortened: each word gives its first letter and maybe
    later ones, in order, every word used ("cet" for central european time, "ams" for
    amsterdam, "jpy" for japanese yen)."""
    if not words:
        return not code
    first = words[0]
    return bool(code) and code[0] == first[0] and any(
        _in_order(code[1:n], first[1:]) and _abbreviates(code[n:], words[1:])
        for n in range(1, len(code) + 1))


def _abbreviated(term: str, claim: str, ev: _Evidence) -> bool:
    """Whether the term is a word of a name the claim spells out whose code the texts give
    in capitals: "Amsterdam" for AMS, "Central European Time" for CET. One word abbreviates
    only a code of three letters or more."""
    codes = {c.lower() for c in _CAPITALS_CODE.findall("\n".join(ev.texts))}
    if not codes:
        return False
    for m in _TITLE_RUN.finditer(claim):
        words = [w.lower() for w in m.group(0).split() if w not in ("and", "of", "the", "for", "&")]
        spans = [words[i:j] for i in range(len(words)) for j in range(i + 1, len(words) + 1)
                 if term in words[i:j]]
        if any(_abbreviates(code, span) for span in spans for code in codes
               if len(span) > 1 or len(code) > 2):
            return True
    return False


_RECORD_CURRENCY = re.compile(r"\bcurrency\s*[:=]\s*([A-Z]{3})\b")


def _other_currency(claim: str, ev: _Evidence) -> list[str]:
    """An amount the records give in one currency ("currency: ZAR", "currency=SGD"), said in
    another the evidence never uses ("$345,000" for "R 345000.00"; "190.00 USD"): the same
    number, so not converted, under another currency's mark."""
    given = {c for t in ev.texts for c in _RECORD_CURRENCY.findall(t) if c in _ISO_CURRENCIES}
    if len(given) != 1:
        return []
    out = []
    for q in quantities(claim):
        at = claim.find(q.text)
        code = next((c for c in re.findall(r"[A-Z]{3}", q.text) if c in _ISO_CURRENCIES), "")
        mark = next((m for m in _MARK_CODES if m in q.text), "")
        if at > 0 and claim[at - 1].isalpha() or not (code or mark):
            continue
        codes = frozenset({code}) if code else _MARK_CODES[mark]
        if given & codes or any(mark and mark in t or any(re.search(rf"\b{c}\b", t, re.IGNORECASE)
                                                          for c in codes) for t in ev.texts):
            continue
        if any(x.value == q.value for t in ev.texts for x in quantities(t)):
            out.append(q.text)
    return out


def _currency_named(term: str, ev: _Evidence) -> bool:
    """Whether the term is a word of the name of a currency whose code the texts give."""
    return any(term in names and re.search(rf"\b{code}\b", text)
               for code, names in _CURRENCY_NAMES.items() for text in ev.texts)


# Letters with a stroke or a ligature, which no accent stripping takes apart: "Małaszewicze"
# is "Malaszewicze" in an ASCII record, "Søborg" is "Soborg".
_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ß": "ss", "æ": "ae",
                          "œ": "oe", "þ": "th"})


def _fold(text: str) -> str:
    """Lowercased text as an ASCII record may spell it: accents stripped, letters spelt out."""
    return strip_accents(text).translate(_LETTERS)


_CODE_PART = re.compile(r"[a-z]+\d+")


def _name_found(term: str, ev: _Evidence) -> bool:
    term = term.replace("_", " ")  # as the evidence is read: "in_1PQ8" is "in 1pq8" there
    term = re.sub(r"['\u2019]s$", "", term)  # "Lord Byron's" names Lord Byron
    # The substring tests first: a term the texts lack needs no pattern of its own compiled.
    folded = _fold(term)
    if term in ev.lower and re.search(rf"(?<![a-z0-9]){re.escape(term)}", ev.lower) or any(
            f in ev.folded and re.search(rf"(?<![a-z0-9]){re.escape(f)}", ev.folded)
            for f in {folded, folded.replace("'", "")}):  # "Xi'an" is "XIAN" in a code
        return True
    # A code's part at a seam of its letters and digits: "R21" of the grant "1R21AI178402".
    if _CODE_PART.fullmatch(term) and re.search(rf"(?<=\d){re.escape(term)}(?!\d)", ev.lower):
        return True
    parts = [p for p in re.split(r"[\s-]+", term) if p]
    if all(stem(p) in ev.stems for p in parts):
        return True
    # Its parts written as one word: "Wi-Fi" for "wifi", "e-mail" for "email".
    if len(parts) > 1 and stem("".join(parts)) in ev.stems:
        return True
    # Another form of a people's place: "Denmark" for "a Danish drummer".
    return all(p in ev.peoples for p in parts) or _country_coded(term, ev)


# Each country's ISO 3166 code, as a record's field writes it ("roaming_UA=41.30",
# "country: PL"): the country by its first form in _PEOPLE_FORMS.
_COUNTRY_CODES = dict(re.findall(r"([a-z ]+):([A-Z]{2})",
    "united states:US,united kingdom:GB,ireland:IE,france:FR,germany:DE,italy:IT,spain:ES,portugal:PT,"
    "netherlands:NL,belgium:BE,denmark:DK,sweden:SE,norway:NO,finland:FI,iceland:IS,poland:PL,austria:AT,"
    "switzerland:CH,greece:GR,russia:RU,ukraine:UA,hungary:HU,croatia:HR,serbia:RS,romania:RO,turkey:TR,"
    "israel:IL,egypt:EG,india:IN,pakistan:PK,china:CN,japan:JP,vietnam:VN,thailand:TH,indonesia:ID,"
    "philippines:PH,australia:AU,canada:CA,mexico:MX,brazil:BR,argentina:AR,chile:CL,peru:PE,colombia:CO,"
    "cuba:CU,jamaica:JM,nigeria:NG,kenya:KE,ethiopia:ET,iran:IR,iraq:IQ"))
# Each of those countries and its code as a field writes it, compiled once: every name a
# claim holds and the records lack is looked for so.
_CODE_FIELDS = {country: re.compile(rf"(?:[_=]|:\s?|\bcountry\W{{1,3}}){code}(?![A-Za-z])")
                for country, code in _COUNTRY_CODES.items()}


def _country_coded(term: str, ev: _Evidence) -> bool:
    """A country the evidence names only by its code in a record's field: "Ukraine" for
    "roaming_UA" (never a code standing alone, which may be a word in capitals: "IN", "NO")."""
    field = _CODE_FIELDS.get(_PEOPLES.get(term, ("",))[0])
    return field is not None and any(field.search(t) for t in ev.texts)


# Capitalised words (and codes) in a row, "of"/"the"/"de" between: one name.
_NAME_RUN = re.compile(r"\b[A-Z][\w'-]*(?:\s+(?:(?:of|the|de)\s+)?[A-Z0-9][\w'-]*)+")


def _name_rivals(ev: _Evidence) -> list[frozenset[str]]:
    """The names whose words another name shares only in part names another thing. In an
    answer to a question on documents, a name the documents give with other words is
    another name: "United States Army" where they say "United States Navy". A person a tool
    gives with another word is another person: "Priya Menon" where the schedule's
    interviewer is "Priya Raman"."""
    rivals = ev.name_runs if len(ev.texts) == ev.documents and _question(ev.given) else []
    return [*rivals, *(frozenset(p.lower().split()) for p in _person_keys(ev))]


def _renamed(claim: str, ev: _Evidence) -> str:
    """A name that keeps a word of one the context gives and puts in its place a word the
    context never gives ("Dr. Amara Mensah" for "Dr. Amara Osei", "Priya Menon" for "Priya
    Raman"): another person or thing, not the context's called another way. An initial
    ("Priya R.") or a name said in part ("Dr. Osei") is the context's. One word for one, in
    the name's last words (a title or role may lead: "Captain Ines Moreau"): "New Flight
    Information" is no "New York"; and not a word a code of the context spells ("San
    Francisco (SFO)" beside "San Antonio")."""
    rivals = _name_rivals(ev)
    for m in _NAME_RUN.finditer(claim):
        said = [w.lower() for w in re.findall(r"[\w'-]+", m.group(0)) if w.lower() not in _FUNCTION_WORDS]
        for rival in rivals:
            tail = set(said[-len(rival):])
            new = {w for w in tail - rival if len(w) > 2 and not w.isdigit() and not _name_found(w, ev)
                   and not _acronym_found(w, claim, ev) and not _abbreviated(w, claim, ev)}
            if len(said) >= len(rival) == len(tail) >= 2 and len(tail & rival) == len(rival) - 1 and new:
                return f'"{m.group(0)}" where the context names "{" ".join(sorted(rival))}"'
    return ""


def _named_with_found(claim: str, ev: _Evidence) -> set[str]:
    """Words of a name some other word of which the evidence holds: "Port of Felixstowe"
    for Felixstowe, "D2 Problem" for D2. The name is the context's; its generic words are
    the answer's way of saying it. A number in a name ("Model 3", "Terminal 2") is no
    word of it that the evidence can hold: numbers are the number checks'."""
    out: set[str] = set()
    rivals = _name_rivals(ev)
    for m in _NAME_RUN.finditer(claim):
        words = {w.lower() for w in re.findall(r"[\w'-]+", m.group(0))} - {"of", "the", "de"}
        found = {w for w in words if not w.isdigit() and _name_found(w, ev)}
        if found and not any(found <= r and r - words for r in rivals):
            out |= words
    return out


_CURRENCY_CODES = frozenset(c.lower() for c in _ISO_CURRENCIES)
