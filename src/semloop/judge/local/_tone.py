"""How heated one user turn is: a sentiment lexicon plus the shapes frustration takes.

The word valences are VADER's (``vadersentiment``, MIT, part of the ``local`` extra), read
from the installed package at run time, and :func:`valence` is its analyzer's compound
score; nothing of it is copied here. VADER alone cannot tell a problem report ("the build
failed with an error") from anger (both about -2), so :func:`turn_tone` only counts
negative words the conversation had not already used to describe the problem (see
``known``), and adds the shapes anger takes whatever the words: complaints about having to
repeat oneself, blame aimed at the assistant, asking for a human, threats to leave, giving
up, shouting and "!!" (unless the turn is glad: intensity for something, not against it).
Gratitude and "that worked" pull the other way, unless the turn is sarcastic (praise
inside a complaint).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from ..._exceptions import MissingExtraError
from ..._features import content_tokens, tokens

__all__ = [
    "DISPLEASED",
    "OWN_PERSON",
    "QUOTED",
    "REPEATING",
    "Shapes",
    "Tone",
    "any_of",
    "lexicon",
    "plain",
    "turn_tone",
    "valence",
]


@lru_cache(maxsize=1)
def lexicon() -> dict[str, float]:
    """VADER's word -> valence (-4 .. +4), from the installed ``vadersentiment`` wheel."""
    try:
        text = resources.files("vaderSentiment").joinpath("vader_lexicon.txt").read_text("utf-8")
    except ModuleNotFoundError:
        raise MissingExtraError(
            "the local judge's tone lexicon", "local", "vadersentiment"
        ) from None
    out: dict[str, float] = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) >= 2:
            try:
                out[parts[0]] = float(parts[1])
            except ValueError:
                continue
    return out


@lru_cache(maxsize=1)
def _analyzer() -> Any:
    try:
        from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer  # type: ignore[import-untyped]
    except ModuleNotFoundError:
        raise MissingExtraError(
            "the local judge's tone lexicon", "local", "vadersentiment"
        ) from None
    return SentimentIntensityAnalyzer()


def valence(text: str) -> float:
    """VADER's compound valence of ``text``, -1 .. +1: whether its intensity (capitals,
    "!!", "so", "SO") is for or against something."""
    return float(_analyzer().polarity_scores(text)["compound"])


# Contractions typed without the apostrophe ("im sure", "dont", "youre right"), and curly
# apostrophes: written one way so every pattern reads them alike. Ambiguous ones ("its",
# "ill", "id", "wont") are left alone.
_BARE_CONTRACTION = re.compile(
    r"\b(i)(m|ve)\b|\b(do|does|did|ca|is|are|was|were|have|has|should|could|would)(nt)\b|"
    r"\b(you|they|we)(re|ve)\b|\b(that|what|there|who)(s)\b",
    re.IGNORECASE,
)


def plain(text: str) -> str:
    """``text`` with curly apostrophes straightened and bare contractions restored."""
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    return _BARE_CONTRACTION.sub(
        lambda m: "'".join(g for g in m.groups() if g is not None).replace("'nt", "n't"), text
    )


def any_of(*patterns: str) -> re.Pattern[str]:
    """One case-insensitive pattern matching any of ``patterns``."""
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


# A letter outside ASCII, or a common word of Spanish, French, German, Italian, Portuguese,
# Dutch or Hindi in Latin letters (and below, the telling words of turns in other languages
# that ASCII can spell): the text may be in another language. English turns rarely have either.
_OTHER_TONGUE = re.compile(
    r"[^\x00-\x7f]|\b(?:"
    r"que|es|el|la|los|las|una|esto|eso|por|para|pero|muy|con|del|se|lo|le|mi|su|ya|"  # es
    r"est|pas|les|des|une|vous|je|il|nous|avec|pour|mais|du|au|ce|mon|oui|merci|c'est|j'ai|"  # fr
    r"der|die|das|und|nicht|ist|ich|sie|wir|ein|eine|mit|auf|bitte|danke|ja|nein|doch|noch|"  # de
    r"che|non|sono|per|della|questo|ma|grazie|anche|ancora|sempre|di|da|gli|"  # it
    r"nao|uma|voce|eu|com|mas|isso|muito|obrigado|obrigada|meu|minha|sim|"  # pt
    r"het|een|niet|ik|maar|jullie|dit|wat|voor|uw|ook|als|wel|geen|mijn|zijn|graag|klopt|dank|"  # nl
    r"hai|nahi|nahin|kya|kitna|kitne|batao|mera|mujhe|aap|abhi|lekin|bhai|"  # Hindi in Latin letters
    # A short turn of giving up or settling has none of those ("Laissez tomber.", "Lascia
    # stare.", "Vale.", "Egal."): its own words open the gate.
    r"laissez|laisse|tomber|bref|rien|lascia|lasciamo|perdere|niente|basta|vale|nada|bueno|"
    r"egal|vergiss|schon|deixa|chega|laat|genoeg|"
    # Asking again or granting in languages written in plain ASCII ("i dalje ne znam",
    # "nadal nie wiem", "bado sijui", "u pravu ste").
    r"dalje|nadal|bado|sijui|sielewi|pravu|dreptate|igaza|igazad|oikeassa|sahihi"
    r")\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def _other_tongue(text: str) -> bool:
    # Read once per text: every family asks it of the same turn.
    return bool(_OTHER_TONGUE.search(text))


class Shapes:
    """A family's English pattern and, tried only in a text that may be in another language
    (``_OTHER_TONGUE``), the same shapes in the other languages customers write in: most
    turns are English, and trying every alternative of both at every position
    would double the time. Read like a compiled pattern: ``search``, ``finditer``, ``sub``."""

    __slots__ = ("english", "other")

    def __init__(self, english: re.Pattern[str], *other: str) -> None:
        self.english = english
        self.other = any_of(*other)

    def search(self, text: str) -> re.Match[str] | None:
        found = self.english.search(text)
        if found is None and _other_tongue(text):
            return self.other.search(text)
        return found

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        yield from self.english.finditer(text)
        if _other_tongue(text):
            yield from self.other.finditer(text)

    def sub(self, repl: str, text: str) -> str:
        text = self.english.sub(repl, text)
        return self.other.sub(repl, text) if _other_tongue(text) else text


_N = r"(?:n't|not|never)"
# Other languages. Customers write to English-speaking services in Spanish, French, German,
# Italian, Portuguese and Dutch, or mix them in; VADER and the shapes above read none of it.
# Per family, the same shapes in those six languages (written for this judge from how people
# in them complain, thank and insist; one entry per language where they differ), each in
# the form a customer types, accents optional. Only word shapes with no ordinary calm
# reading are here: "basta" ("it's enough to ...") and "chega" ("it arrives") count only
# alone at a sentence's start, "reclamación" only when lodged, "otra vez" / "de novo" ("again",
# as often "anew") only exclaimed or with "the same".
_A, _E, _I, _O, _U = "[aá]", "[eéèê]", "[ií]", "[oóô]", "[uúü]"
_ML_REPEATING = (
    # es
    (
        rf"\botra vez (?:la misma|lo mismo)\b|\botra vez\s*[?!]|\bya (?:se )?(?:lo |le |les )?(?:he |hab{_I}a |hemos )?(?:dicho|explicado|intentad{_O}|"
        rf"hecho|probado|enviado|escrito)\b|\bya lo (?:intent{_E}|hice|prob{_E}|dije)\b|"
        rf"\b(?:la|una) misma (?:\w+ )?respuesta\b|\b(?:tres|cuatro|cinco|varias|muchas|mil) veces\b|"
        rf"\bpor (?:tercera|cuarta|en{_E}sima) vez\b|\beso ya me lo\b|\b(?:cada vez|siempre) (?:es )?lo mismo\b"
    ),
    # fr
    (
        r"\bencore une fois\b|\bje (?:vous )?l'ai d[ée]j[àa]\b|\bj'ai d[ée]j[àa] (?:essay|fait|dit|expliqu|envoy|"
        r"[ée]crit|demand)|\bla m[êe]me r[ée]ponse\b|\b(?:trois|quatre|cinq|plusieurs) fois\b|"
        r"\b(?:pour|c'est) la (?:troisi[èe]me|quatri[èe]me|[ée]ni[èe]me) fois\b|"
        r"\b(?:[àa] chaque fois|toujours) la m[êe]me (?:chose|histoire)\b"
    ),
    # de
    (
        r"\b(?:schon|bereits) (?:\w+ )?(?:gemacht|gesagt|versucht|probiert|erkl[äa]rt|geschrieben|geschickt)\b|"
        r"\b(?:zum )?(?:dritten|vierten|f[üu]nften|x-ten|zigsten) mal\b|\b(?:drei|vier|f[üu]nf|mehrere) ?mal\b|"
        r"\bmehrmals\b|\bimmer wieder\b|\b(?:dieselbe|die gleiche|die selbe) antwort\b|"
        r"\bjedes mal (?:das|die|der)? ?(?:gleiche|selbe)\b"
    ),
    # it
    (
        r"\bancora una volta\b|\b(?:l'|lo |gli )?ho gi[àa] (?:\w+ )?(?:fatto|detto|provato|scritto|spiegato|"
        r"mandato|inviato)\b|\bla stessa (?:identica )?(?:cosa|risposta)\b|\b(?:tre|quattro|cinque|pi[ùu]) volte\b|"
        r"\bper la (?:terza|quarta|ennesima) volta\b"
    ),
    # pt
    (
        rf"\b(?:de novo|outra vez)\s*[?!]|\b(?:de novo|outra vez) a mesma\b|\bj[áa] (?:\w+ )?(?:fiz|tentei|disse|expliquei|falei|mandei|enviei|liguei)\b|"
        rf"\ba mesma (?:\w+ )?resposta\b|\b(?:tr[êe]s|quatro|cinco|v[áa]rias|muitas) vezes\b|"
        rf"\b(?:pela|{_E} a) (?:segunda|terceira|quarta|en[ée]sima) vez\b"
    ),
    # nl
    (
        r"\b(?:al )?(?:drie|vier|vijf|meerdere|zoveel) keer\b|\bvoor de (?:derde|vierde|zoveelste) keer\b|"
        r"\bhetzelfde antwoord\b|\bweer hetzelfde\b|\b(?:zei|zeiden|zegt) (?:jullie|je|u) (?:\w+ ){0,2}ook al\b|"
        r"\bheb ik (?:\w+ )?al (?:gedaan|gezegd|geprobeerd|gestuurd)\b"
    ),
    (
        r"\bcu[aá]ntas veces (?:tengo|hay|debo|voy)\b|\bcombien de fois\b|\bwie oft (?:noch|"
        r"muss|soll)\b"
    ),
    (
        r"\bquante volte (?:devo|ancora|dovr)\b|\bquantas vezes (?:vou|tenho|preciso)\b|"
        r"\bhoe vaak (?:nog|moet)\b"
    ),
    # Korean, Chinese, Japanese, Russian, Hebrew: scripts \b cannot split (CJK) are matched
    # without it; each entry is a shape with no calm reading in a customer's mouth.
    (
        r"(?:세|네|다섯) ?번째|몇 ?번(?:이나|을|째)|벌써 (?:\S+ )?(?:말|설명|얘기)|같은 (?:답|말|대답)(?:만|을)|"
        r"第[三四五六]次|(?:说|讲|问)了?(?:好|很)?(?:多|几)[遍次]|已经(?:说|讲|试|解释|问)过|同样的(?:回答|答复|话)|"
        r"[3-5三四五]回目|何度も|何回も|さっきも(?:言|説明)|同じ(?:回答|答え|説明)(?:ばかり|を)|"
        r"\b(?:уже )?(?:третий|четв[её]ртый|пятый) раз\b|\bуже (?:писал|говорил|объяснял|пробовал|сделал|отправлял)\w*|"
        r"\bсколько (?:можно|раз)\b|\bодно и то же\b|"
        r"פעם (?:שלישית|רביעית|חמישית)|כבר (?:אמרתי|הסברתי|ניסיתי|שלחתי|כתבתי)|אותה תשובה"
    ),
    (
        # Czech: "every time the same (song)", "for the third time", "I already wrote".
        r"\bpoka[žz]d[ée] (?:to )?(?:stejn|tot[ée])\w*|\bpot[řr]et[íi]\b|\bpo?[čc]tvrt[ée]\b|"
        r"\bu[žz] jsem (?:to )?(?:psal|ps[aá]la|hl[áa]sil|[řr][íi]kal|zkou[šs]el)\w*|"
        # Turkish: "the same answer (again)?", "which time is this", "I already said / wrote".
        r"\bayn[ıi] (?:\w+ )?(?:cevap|yan[ıi]t|[şs]ey)\w*|\bka[çc][ıi]nc[ıi] (?:kez|defa|kere|oldu)\b|"
        r"\b(?:zaten|daha [öo]nce) (?:\w+ )?(?:s[öo]yledim|yazd[ıi]m|denedim|g[öo]nderdim)\b"
    ),
)
_ML_BLAME = (
    # "Thanks for nothing", the whole class: es, pt, fr, it, de, nl, sl, hr/sr/bs, pl, cs/sk,
    # hu, ro, cy. The thanks word alone reads as a calm close; with "for nothing" it blames.
    (
        r"\b(?:gracias|obrigad[oa]|merci|grazie|danke|bedankt|dank je|hvala|dzi[ęe]ki|d[íi]ky|vďaka|"
        r"k[öo]sz[öo]n[öo]m|mersi|mul[țţt]umesc|diolch)\b,? (?:por|pour|per|f[üu]r|voor|za|a|de|am) "
        r"(?:nada|rien|niente|nulla|nichts|niets|niks|ni[čc]|ni[šs]ta|nic|semmit|nimic|ddim)\b"
    ),
    # es
    (
        rf"\b(?:es|esto es|eso es|qu{_E}|menuda|vaya) (?:una |un )?(?:verg{_U}enza|rid{_I}culo|absurdo|inaceptable|"
        rf"inadmisible|broma|desastre|estafa|timo|robo|indignante|tomadura de pelo|chiste)\b|"
        rf"\bno (?:me )?sirve(?:n)? (?:para|de) nada\b|\bno (?:me )?(?:escucha|lee)n?\b|\b{_I}n{_U}til(?:es)?\b|"
        rf"\bse (?:est{_A}n|est{_A}s) (?:riendo|burlando) de m{_I}\b|\b(?:alguien|nadie) (?:est{_A} )?mirando\b"
    ),
    # fr
    (
        r"\b(?:c'est|vraiment|c'est vraiment) (?:une )?(?:honte|inadmissible|inacceptable|"
        r"scandaleux|n'importe quoi|ridicule|absurde|lamentable|blague|arnaque|du vol|honteux)\b|"
        r"\bvous vous (?:moquez|foutez) de (?:moi|nous)\b|\b(?:vous ne servez|ne sert) [àa] rien\b|"
        r"\bvous n'[ée]coutez (?:pas|rien)\b"
    ),
    # de
    (
        r"\b(?:das ist|ist das|so eine|eine|echt|einfach) (?:\w+ )?(?:frechheit|unversch[äa]mtheit|zumutung|"
        r"katastrophe|l[äa]cherlich|inakzeptabel|sauerei|skandal|abzocke|betrug|witz)\b|\bunversch[äa]mt\b|"
        r"\bnutzlos\b|\b(?:sie|ihr) h[öo]ren (?:mir )?(?:ja |gar )?nicht zu\b|\bbringt (?:mir )?(?:gar )?nichts\b"
    ),
    # it
    (
        r"\b(?:[èe]|che|una|questa [èe]|[èe] una) (?:una )?(?:vergogna|presa in giro|follia|assurdo|ridicolo|"
        r"inaccettabile|scandalo|truffa|schifo|vergognoso)\b|\bmi (?:state|stai|sta) prendendo in giro\b|"
        r"\bnon servite a (?:niente|nulla)\b|\binutili\b"
    ),
    # pt
    (
        rf"\b(?:que|{_E} um|{_E} uma|isso {_E}|isto {_E}|uma) (?:absurdo|vergonha|palha[çc]ada|rid{_I}culo|"
        rf"inaceit{_A}vel|descaso|piada|sacanagem|roubo|falta de respeito)\b|\bn{_A}o respeitam\b|"
        rf"\bdescaso\b|\bvoc{_E}s s{_A}o (?:uns )?(?:incompetentes|in{_U}teis)\b"
    ),
    # nl
    (
        r"\b(?:dit is|dat is|echt|wat een|het is|gewoon) (?:\w+ )?(?:belachelijk|schandalig|onacceptabel|"
        r"een schande|een grap|waardeloos|een aanfluiting|absurd|diefstal|oplichting)\b|"
        r"\bniemand weet\b|\bjullie luisteren niet\b|\bwaardeloos\b"
    ),
    (
        r"\bno tiene nombre\b|\bno hay derecho\b|\bes el colmo\b|\bqu[eé] poca seriedad\b|"
        r"\bp[eé]sim[oa]\b|\bme (?:est[aá]is|est[aá]n) tomando el pelo\b|"
        r"\bp[eé]rdida de tiempo\b|\bno (?:me )?ayuda(?:s|n)? (?:en )?nada\b"
    ),
    (
        r"\bvous vous fichez\b|\bc'est (?:le comble|un scandale|pas normal|pas s[ée]rieux|"
        r"nul)\b|\bperte de temps\b|\bvous ne comprenez (?:rien|pas)\b|"
        r"\b[çc]a ne m'aide (?:pas|en rien)\b"
    ),
    (
        r"\bhilft (?:mir )?(?:\w+ )?(?:nicht|nichts|kein st[üu]ck) weiter\b|\bso geht (?:man|"
        r"das) nicht\b|\bzeitverschwendung\b|\bsie verstehen (?:mich )?nicht\b|"
        r"\bkatastrophal\b|\bmiserabel\b"
    ),
    (
        r"\bvi rendete conto\b|\bsenza parole\b|\binaudito\b|\bvergognatevi\b|\bpessim[oa]\b|"
        r"\bperdita di tempo\b|\bnon (?:mi )?(?:capite|ascoltate)\b|\bnon [èe] (?:normale|"
        r"serio|accettabile)\b"
    ),
    (
        r"\bp[ée]ssim[oa]\b|\bperda de tempo\b|\bvoc[eê]s n[ãa]o (?:entendem|resolvem|"
        r"ajudam)\b|\binadmiss[ií]vel\b|\bn[ãa]o [ée] poss[ií]vel\b"
    ),
    (
        r"\bslaat (?:helemaal )?nergens op\b|\btijdverspilling\b|"
        r"\bjullie snappen (?:het )?niet\b|\bdit kan (?:toch )?niet\b|\bik word er gek van\b"
    ),
    (
        r"어이(?:가)? ?없|말이 안 (?:되|돼)|황당|장난(?:하|치)|최악|"
        r"离谱|荒唐|荒谬|太过分|什么态度|敷衍|没用|搞什么|"
        r"ふざけ|話にならない|あり(?:え|得)ない|最悪|役に立たない|"
        r"\bбезобрази\w*|\bиздеваетесь\b|\bабсурд\w*|\bбесполезн\w*|\bпозор\w*|\bэто смешно\b|"
        r"מגוחך|חוצפה|בושה|זלזול|לא רציני|שערורי"
    ),
)
_ML_ESCALATE = (
    (
        r"\bhablar con (?:una persona|un humano|alguien|un responsable|un supervisor|el encargado|"
        r"un agente|un ser humano)\b|\bpersona (?:real|de verdad)\b"
    ),
    (
        r"\bparler [àa] (?:un humain|une personne|quelqu'un|un responsable|un conseiller|votre sup[ée]rieur|"
        r"un vrai)\b|\bun (?:vrai )?humain\b"
    ),
    (
        r"\b(?:einem menschen|einer (?:echten )?person|einem mitarbeiter|einer mitarbeiterin|ihrem vorgesetzten|"
        r"einem vorgesetzten|dem chef|jemandem) (?:\w+ )?(?:sprechen|reden)\b|\bechten menschen\b"
    ),
    r"\bparlare con (?:una persona|un operatore|un responsabile|qualcuno|un essere umano|un umano)\b",
    (
        rf"\bfalar com (?:uma pessoa|um atendente|um humano|algu{_E}m|um respons{_A}vel|o gerente|"
        rf"um supervisor|um ser humano)\b"
    ),
    (
        r"\b(?:spreken|praten) met (?:een mens|iemand|een medewerker|een leidinggevende|de manager)\b|"
        r"\b(?:een echt mens|een medewerker spreken)\b"
    ),
    (
        r"(?:상담원|담당자|매니저|책임자|사람)(?:이랑|과|와|하고|한테)? ?(?:연결|통화|얘기)|"
        r"转人工|人工客服|(?:找|叫)(?:你们)?(?:的)?(?:经理|主管|领导|负责人)|"
        r"(?:責任者|上司|人間|オペレーター)(?:に|と)(?:代わ|つな|繋|話)|"
        r"\b(?:соедините|переключите|позовите|дайте)\b[^.?!]{0,30}(?:оператор|менеджер|руководител|старш|человек)|"
        r"\bживо(?:й|го|му|м) (?:человек|оператор)\w*|"
        r"(?:לדבר|תעביר(?:ו)? אותי) (?:עם|ל)(?:נציג|מנהל|אחראי|בן אדם)"
    ),
    (
        r"\b(?:po)?rozmawia[ćc] z (?:kierownik|prze[łl]o[żz]on|cz[łl]owiek|konsultant|manager)\w*|"
        r"\b(?:yetkili|m[üu]d[üu]r|y[öo]netici|temsilci)\w* (?:ile )?(?:g[öo]r[üu][şs]|konu[şs])\w*|"
        r"\bprata med (?:en m[äa]nniska|en chef|n[åa]gon ansvarig)\b"
    ),
)
_ML_LEAVE = (
    (
        rf"\bdarme de baja\b|\b(?:poner|pongo|presentar|presento|pondr{_E}) (?:una )?(?:reclamaci{_O}n|queja|"
        rf"denuncia)\b|\bhoja de reclamaciones\b|\b(?:en|a) consumo\b|\babogad[oa]\b|\bla competencia\b"
    ),
    (
        r"\bje r[ée]silie\b|\br[ée]silier (?:mon|l'|le|mes)\b|\bporter plainte\b|\bmon avocat\b|"
        r"\b(?:la|chez la) concurrence\b|\b(?:je|on) (?:vais|va) (?:aller )?(?:ailleurs|voir ailleurs)\b"
    ),
    (
        r"\b(?:ich )?k[üu]ndige\b|\bk[üu]ndigen\b|\banwalt\b|\bverbraucherzentrale\b|"
        r"\bbeschwerde (?:einreichen|einlegen)\b|\bzur konkurrenz\b|\bnie wieder\b|"
        # "From now on I only book flights": the service dropped for another.
        r"\b(?:ab jetzt|ab sofort|k[üu]nftig) (?:\w+ )?nur noch\b"
    ),
    (
        r"\bdisdico\b|\bdisdire\b|\bdisdetta\b|\bavvocato\b|\b(?:associazion\w+ )?(?:dei )?consumatori\b|"
        r"\b(?:andr[òo]|vado) altrove\b|\bconcorrenza\b|\brecensione negativa\b"
    ),
    (
        rf"\b(?:vou|vamos) cancelar\b|\bcancelar o (?:contrato|plano|servi[çc]o)\b|\bprocon\b|\breclame aqui\b|"
        rf"\badvogado\b|\bprocessar\b|\bconcorr{_E}ncia\b"
    ),
    (
        r"\b(?:zeg|zeggen) (?:ik |we )?(?:\w+ )?(?:contract|abonnement) op\b|\bopzeggen\b|\badvocaat\b|"
        r"\bklacht (?:indienen|in)\b|\been andere (?:zaak|aanbieder|winkel|provider)\b|\bconsumentenbond\b|"
        r"\bnooit meer\b"
    ),
    (
        r"\bnunca m[aá]s\b|\bno vuelvo a\b|\bme (?:cambio|voy) (?:a|de) (?:otra|compa)|"
        r"\b(?:les|os) (?:voy a )?denunci"
    ),
    (
        r"\bplus jamais\b|\bje vais (?:porter plainte|r[ée]silier|changer d'op[ée]rateur|"
        r"me plaindre)\b"
    ),
    r"\bich werde mich beschweren\b|\bich beschwere mich\b|\bich wechsle\b",
    (
        r"\bmai pi[ùu]\b|\bfar[òo] (?:reclamo|causa|denuncia)\b|\bcambio (?:gestore|"
        r"operatore|fornitore)\b"
    ),
    r"\bnunca mais\b|\bvou (?:reclamar|processar)\b",
    r"\bik ga (?:een klacht|naar de (?:rechter|geschillencommissie))\b|\bik stap over\b",
    r"\bj'annule (?:mon|ma|mes|l'|le|la)\b|\b(?:cancelo|anulo) (?:mi|la|el)\b|\bannullo (?:il|l'|la)\b",
    (
        r"다시는 (?:\S+ ){0,3}(?:안|않|못)|이의 ?제기|리뷰에 (?:\S+ )?(?:쓸|남길|올릴)|소비자원|해지(?:할|하겠|해 ?주)|"
        r"再也不|投诉|差评|消协|起诉|退订|销户|"
        r"二度と|解約(?:し|する)|クレーム|消費者センター|"
        r"\bбольше никогда\b|\b(?:напишу|оставлю|подам|направлю)\b[^.?!]{0,20}\b(?:отзыв|жалоб)\w*|"
        r"\bрасторг\w*|\bв суд\b|"
        r"\bуйду к\b|\bроспотребнадзор\w*|"
        r"לעולם לא|(?:אגיש|אכתוב|להגיש) תלונה|אעזוב|(?:לעורך|אפנה לעורך) דין|ביקורת (?:שלילית|גרועה)"
    ),
    # Turkish, Polish, Swedish: moving to another firm, a complaint lodged, a lawyer.
    (
        r"\bba[şs]ka (?:bir )?(?:kurum|banka|[şs]irket|firma|operat[öo]r)\w* ge[çc]\w*|"
        r"\b[şs]ikayet (?:edece[ğg]im|ediyorum)\b|\bt[üu]ketici hakem\w*|\bavukat\w*|"
        # "never again ... we won't renew / buy / use".
        r"\bbir daha (?:\w+ ){0,4}?\w+(?:meyiz|may[ıi]z|meyece[ğg]iz|mayaca[ğg][ıi]z|mem|mam)\b|"
        r"\bzrezygnuj[ęe]\b|\bz[łl]o[żz][ęe] (?:skarg[ęe]|reklamacj[ęe])\b|\bwypowiadam\b|"
        r"\brzecznik\w* konsument\w*|\bprawnik\w*|"
        r"\bjag s[äa]ger upp\b|\bjag (?:kommer att )?anm[äa]l\w*|\bkonsumentverket\b|\badvokat\b"
    ),
    # Romanian, Vietnamese, Greek, Hungarian, Serbo-Croatian, Catalan: going to the press or
    # the town hall, a complaint lodged, another provider.
    (
        r"\b(?:sun|merg|scriu) la (?:primări|pres[ăa]|protec[țţt]ia consumatorului|ANPC)\w*|\bschimb (?:furnizorul|operatorul|banca)\b|"
        r"\bchuy[ểe]n (?:sang )?(?:nh[àa] m[ạa]ng|b[êe]n|c[ôo]ng ty|ng[âa]n h[àa]ng|nh[àa] cung c[ấa]p) kh[áa]c\b|\bkhi[ếe]u n[ạa]i\b|"
        r"θα κάνω (?:καταγγελία|παράπονο)|αλλάζω (?:εταιρεία|πάροχο)|\bpanaszt (?:teszek|tesz[üu]nk)\b|"
        r"\b(?:szolg[áa]ltat[óo]t|bankot) v[áa]ltok\b|\bfelmondom\b|\b(?:podne[ts]i|podnosim|pi[šs]em) [žz]albu\b|"
        r"\bmenjam (?:operatera|banku)\b|\bposa?r[ée] una reclamaci[óo]\b|\bcanviar[ée] de companyia\b"
    ),
)
_ML_GIVE_UP = (
    rf"\bestoy hart[oa]\b|\bhart[oa] de\b|\bya est{_A} bien\b|\bme rindo\b|\bolv{_I}dalo\b|\bbasta ya\b",
    (
        r"\bj'en ai (?:marre|assez|ras le bol)\b|\bras le bol\b|\blaissez tomber\b|\bj'abandonne\b|\b[çc]a suffit\b|"
        # Said to one person, and Quebec's "laisse faire" (never mind).
        r"\blaisse (?:tomber|faire)\b|\boubliez? [çc]a\b"
    ),
    (
        r"\b(?:es|jetzt|mir) reicht(?:'s|s)?\s*[.!]|\bnase voll\b|\bich habe (?:die nase )?voll\b|"
        r"\bvergessen sie es\b|\bvergiss es\b|\bich gebe auf\b"
    ),
    (
        r"\bsono stuf[oa]\b|\bstuf[oa] di\b|(?:^|[.!?]\s*)basta\s*[,.!]|\blascia(?:mo)? (?:perdere|stare)\b|"
        r"\bne ho abbastanza\b|\bmi arrendo\b"
    ),
    (
        rf"\b(?:estou|t{_O}) (?:cansad[oa]|fart[oa])\b|(?:^|[.!?]\s*)chega\s*[,.!]|\bchega de\b|\bdesisto\b|"
        r"\bdeixa (?:pra|para) l[áa]\b"
    ),
    (
        r"\bspuugzat\b|\bik ben het zat\b|\bik (?:ben|heb) er klaar mee\b|\blaat maar\b|"
        r"\bgenoeg is genoeg\b|\bik geef het op\b"
    ),
    r"\bhasta las narices\b|\bme tienen hart[oa]\b|\bno puedo m[aá]s\b",
    r"\bje n'en peux plus\b",
    r"\bich kann nicht mehr\b",
    r"\bnon ne posso pi[ùu]\b",
    r"\bcansei\b|\bn[ãa]o aguento mais\b",
    r"\bik ben het (?:spuug)?zat\b",
    (
        r"(?:^|[.!?]\s*)됐(?:어요|습니다|어)\s*[.!]|포기(?:할|했|합)|"
        r"算了|受够了|无语|"
        r"もういいです|もう結構です|"
        r"\bзабудьте\b|\bпроехали\b|\bнадоело\b|\bс меня хватит\b|"
        r"(?:^|[.!?]\s*)(?:עזוב|עזבי|לא משנה)\s*[.,!]|נמאס"
    ),
    # Turkish, Polish, Swedish: "enough", "I'm fed up", "I give up", "forget it".
    (
        r"(?:^|[.!?,]\s*)yeter(?: art[ıi]k)?\s*(?:[.!]|$)|\bb[ıi]kt[ıi]m\b|\bvazge[çc]tim\b|\bbo[şs] ?verin\b|"
        r"\bmam (?:ju[żz] )?(?:do[śs][ćc]|dosy[ćc])\b|\bdajcie spok[óo]j\b|\bpoddaj[ęe] si[ęe]\b|"
        r"\bnu f[åa]r det vara nog\b|\bjag ger upp\b|\bstrunt i det\b|\bjag har f[åa]tt nog\b"
    ),
    # Czech: "I'm really fed up with it", "I've had enough", "I give up", "forget it".
    (
        r"\b(?:u[žz] )?m[ěe] to (?:fakt |opravdu |v[ůu]bec )?nebav[íi]\b|\bm[áa]m (?:toho|u[žz]) dost\b|"
        r"\bvzd[áa]v[áa]m(?: to)?\b|\bto nech(?:te)? b[ýy]t\b"
    ),
)
_ML_IMPATIENT = (
    rf"\ben serio\b|\bde una vez\b|\bhasta cu{_A}ndo\b|\btodav{_I}a (?:nada|sin)\b|\bsigo esperando\b",
    (
        r"\bs[ée]rieusement\b|\btoujours (?:rien|pas)\b|\bce n'est pas possible\b|\bc'est pas possible\b|"
        r"\bvous plaisantez\b|\b[çc]a fait (?:\w+ )?(?:semaines|jours|mois|heures)\b"
    ),
    (
        r"\bimmer noch (?:nicht|nichts|kein\w*)\b|\bseit (?:\w+ )?(?:wochen|tagen|stunden|monaten)\b|"
        r"\bunglaublich\b|\bernsthaft\b|\bwie lange (?:noch|soll)\b|"
        # One span waited through ("seit einer Stunde"), and "you can't be serious".
        r"\bseit (?:einer|einem|zwei|drei) (?:halben )?(?:stunden?|wochen?|tagen?|monaten?)\b|"
        r"\bdoch nicht (?:ihr|dein|euer) ernst\b"
    ),
    r"\bancora (?:niente|nulla)\b|\bsul serio\b|\bda (?:\w+ )?(?:settimane|mesi)\b|\bquanto (?:ancora|devo aspettare)\b",
    rf"\bat{_E} quando\b|\bainda nada\b|\bs{_E}rio\s*\?|\b(?:h{_A}|faz) (?:\w+ )?(?:semanas|meses)\b",
    r"\bnog steeds (?:niet|niks|geen)\b|\bal (?:\w+ )?(?:weken|maanden)\b|\bhoe lang nog\b|\bserieus\b",
    (
        r"\bllevo (?:todo el d[ií]a|horas|d[ií]as|semanas|meses)\b|\bj'attends depuis\b|"
        r"\bich warte seit\b|\baspetto da\b|\b(?:estou|t[oô]) esperando h[áa]\b|"
        r"\bik wacht al\b"
    ),
    (
        r"언제까지|아직도|도대체|"
        r"到底|还要等多久|究竟|"
        r"いつまで|いい加減|"
        r"\bсколько (?:ещё|еще) ждать\b|\bдо сих пор\b|\bкогда (?:же )?уже\b|"
        r"עד מתי|כמה עוד"
    ),
    (
        r"\bnatychmiast\b|\bile (?:jeszcze|mam czeka[ćc])\b|\b(?:wci[ąa][żz]|nadal) nic\b|"
        r"\bh[âa]l[âa] (?:bekliyorum|yok)\b|\bciddi misiniz\b|"
        r"\bfortfarande (?:inget|ingen)\b|\bsk[äa]mtar ni\b"
    ),
)
_ML_INVESTED = (
    (
        rf"\b(?:pago|pagu{_E}|he pagado|je paie|j'ai pay[ée]|ich zahle|ich habe \w+ bezahlt|ho pagato|"
        rf"eu pago|paguei|ik betaal|ik heb \w+ (?:aan)?betaald|al \w+ (?:euro )?aanbetaald)\b"
    ),
)
_ML_REDRESS = (
    (
        r"\bdinero de vuelta\b|\b(?:quiero|exijo) (?:\w+ )?(?:reembolso|mi dinero)\b|\bje veux (?:[êe]tre )?rembours|"
        r"\brembourse[zr]-moi\b|\bgeld zur[üu]ck\b|\bsoldi indietro\b|\brivoglio i (?:miei )?soldi\b|"
        r"\bdinheiro de volta\b|\bquero (?:o )?(?:meu )?(?:reembolso|estorno)\b|\bgeld terug\b"
    ),
)
_ML_DISPLEASED = (
    (
        r"\b(?:estoy|muy|bastante|realmente) (?:molest[oa]|enfadad[oa]|cabread[oa]|decepcionad[oa]|"
        r"indignad[oa]|frustrad[oa])\b|\bperdiendo la paciencia\b"
    ),
    (
        r"\b(?:je suis|tr[èe]s|vraiment|assez) (?:d[ée][çc]ue?|furieu(?:x|se)|[ée]nerv[ée]e?|agac[ée]e?|"
        r"m[ée]contente?|en col[èe]re|exc[ée]d[ée]e?)\b|\bje suis [àa] bout\b|\bperdre patience\b"
    ),
    (
        r"\b(?:bin|sehr|echt|total|wirklich|ziemlich) (?:ver[äa]rgert|sauer|w[üu]tend|entt[äa]uscht|genervt|"
        r"frustriert|unzufrieden)\b|\bmeine geduld\b"
    ),
    (
        r"\b(?:sono|molto|davvero|proprio) (?:arrabbiat[oa]|delus[oa]|furios[oa]|seccat[oa]|insoddisfatt[oa]|"
        r"irritat[oa])\b|\b(?:sto )?perdendo la pazienza\b"
    ),
    (
        rf"\b(?:estou|muito|bem|t{_O}) (?:irritad[oa]|chatead[oa]|decepcionad[oa]|insatisfeit[oa]|furios[oa]|"
        rf"revoltad[oa])\b|\bperdendo a paci{_E}ncia\b"
    ),
    (
        r"\b(?:ben|erg|heel|echt|zeer) (?:boos|teleurgesteld|ontevreden|ge[ïi]rriteerd|kwaad|gefrustreerd)\b|"
        r"\bmijn geduld (?:is|raakt) op\b"
    ),
    r"\bme parece (?:fatal|muy mal|injusto|vergonzoso)\b|\bestoy muy descontent[oa]\b",
    r"\bje trouve [çc]a (?:inadmissible|scandaleux|honteux|inacceptable)\b",
    r"\bich bin sprachlos\b|\b(?:sehr|[äa]u(?:ß|ss)erst) ver[äa]rgert\b",
    r"\bsono (?:molto )?(?:deluso|delusa|amareggiat[oa])\b",
    r"\bestou (?:muito )?(?:decepcionad[oa]|indignad[oa])\b",
    r"\bik ben (?:erg )?(?:teleurgesteld|boos)\b",
    # "I don't agree", "it annoys me", "that's an abuse".
    (
        r"\bno estoy (?:\w+ )?de acuerdo\b|\bme parece un abuso\b|\bme molesta\b|\bpas d'accord\b|"
        r"\b[çc]a m'[ée]nerve\b|\bnicht einverstanden\b|\b[äa]rgert mich\b|\bnon sono d'accordo\b|"
        r"\bmi d[àa] fastidio\b|\bn[ãa]o concordo\b|\bme irrita\b|\bniet mee eens\b|\bergert me\b"
    ),
)
_ML_WORKED = (
    (
        r"\bya funciona\b|\bfunciona(?:ba)? (?:ya|ahora|perfectamente)\b|\b[çc]a (?:marche|fonctionne)\b|"
        r"\bfunktioniert (?:jetzt|wieder|perfekt)\b|\b(?:ora )?funziona\b|\bfuncionou\b|\bdeu certo\b|"
        r"\bhet werkt\b|\bwerkt (?:nu|weer)\b"
    ),
)
_ML_THANKS = (
    (
        r"\b(?:muchas |mil )?gracias\b|\bmerci\b|\b(?:vielen )?dank(?:e| je| u)?\b|\bgrazie\b|"
        r"\bobrigad[oa]\b|\bvaleu\b|\bbedankt\b"
    ),
)
_ML_PRAISE = (
    (
        r"\b(?:perfecto|genial|estupendo|parfait|g[ée]nial|perfekt|prima|perfetto|ottimo|[óo]timo|"
        r"perfeito|maravilh\w+|geweldig|fantastisch)\b"
    ),
)
_ML_POLITE = (r"\bpor favor\b|\bs'il vous pla[îi]t\b|\bbitte\b|\bper favore\b|\balstublieft\b",)


# Counting the attempts from the third on ("third visit", "4th call"); "second" and "2nd"
# are as often an item as a repeat ("a second account").
_ORDINAL = r"(?:third|fourth|fifth|sixth|seventh|umpteenth|nth|\d*[3-9](?:rd|th)|\d*1[0-9]th)"
_ATTEMPT = (
    r"(?:visits?|calls?|e-?mails?|messages?|requests?|attempts?|tries|repl(?:y|ies)|responses?|"
    r"answers?|complaints?|tickets?|chats?|letters?|reminders?|trips?|appointments?|engineers?|"
    r"technicians?|repairs?|replacements?|deliver(?:y|ies)|fix(?:es)?|refunds?|leaks?|outages?|"
    r"crash(?:es)?|failures?|cancell?ations?|delays?|links?|no-?shows?|promises?|apolog(?:y|ies))"
)
# Each family is one way frustration shows, written as word shapes, not sentences.
REPEATING = Shapes(
    any_of(
        r"\b(?:second|third|fourth|fifth|sixth|\d+(?:st|nd|rd|th)|how many|umpteenth|nth) times?\b",
        # Not a third party's word to the user ("the doctor already told me what to take").
        r"\balready (?:told|said|tried|did|done|sent|explained|gave|given|asked|answered|checked|restarted|rebooted|re-?installed)\b"
        r"(?! (?:me|us)\b)|\byou(?:'ve| have)? already (?:told|asked|gave|sent|explained(?: to)?) (?:me|us)\b",
        r"\bi (?:just |literally )?(?:told|said|explained to) you\b",
        r"\bkeep (?:on )?(?:saying|telling|repeating|giving|sending|asking|suggesting)\b",
        r"\b(?:the )?(?:same|identical) (?:[\w-]+ ){0,2}?(?:thing|answers?|repl(?:y|ies)|responses?|messages?|script|"
        r"advice|nonsense|suggestions?|steps|links?|guides?|articles?|instructions|sentences?|"
        r"text|paragraphs?|templates?|words|lectures?|speech|copy)\b",
        # "The same line(s)" said back, not "the same product line" a customer shops in.
        r"\b(?:the )?(?:same|identical) (?:old )?lines?\b",
        r"\bevery (?:single )?time\b|\bevery single (?:update|day|week|month|call|order)\b",
        r"\b(?:yet|once) again\b|\bagain and again\b|\bover and over\b",
        # Effort repeated: "reinstalled 3 times", "sent it twice", "twice already".
        r"\b(?:tried|trying|did|done|doing|sent|sending|asked|asking|called|calling|told|telling|"
        r"restarted|rebooted|reinstalled|re-?installed|submitted|emailed|wrote|written|writing|checked|"
        r"explained|explaining|uploaded|filled|reset)\b(?: [\w-]+){0,3} "
        r"(?:twice|(?:\d+|two|three|four|five|several|many|multiple) times)\b",
        r"\b(?:twice|(?:\d+|two|three|four|five|several|many|multiple) times) already\b",
        # The tries it took counted ("Only took four tries", "took three attempts").
        r"\btook (?:me |you |us )?(?:only |just )?(?:\d+|two|three|four|five|six|several|many|multiple) "
        r"(?:tries|attempts|goes|rounds)\b",
        r"\b(?:repeat|repeating) (?:myself|yourself)\b",
        r"\byou (?:said|told me) (?:that|this|the same)? ?(?:last time|before|already|yesterday|last week)\b",
        r"\bin circles\b|\bgoing nowhere\b|\bget(?:ting)? nowhere\b",
        # Opening the turn ("For the last time: as of 31 October."), not "I saw it for the last
        # time in May".
        r"(?:^|[.!?]\s*)\W*for the (?:last|final|hundredth) time\b",
    ),
    *_ML_REPEATING,
)
# Attempts counted ("third visit", "4th call", "the fifth 'we'll call you'"): a complaint,
# unless the turn is glad ("my third visit and I love it").
_COUNTED = any_of(rf"\b{_ORDINAL} (?:\w+ )?{_ATTEMPT}\b|\b{_ORDINAL} ['\"\u2018\u201c]")
_BLAME = Shapes(
    any_of(
        r"\b(?:you(?:'re| are)|you (?:people|guys) are|this is|that's|that is|it's|what a|such a|"
        r"(?:this|that|the|your) \w+ (?:is|are)) "
        r"(?:so |completely |totally |absolutely |utterly |really |just )?"
        r"(?:useless|pointless|hopeless|worthless|a joke|ridiculous|absurd|unacceptable|terrible|"
        r"awful|garbage|rubbish|pathetic|a waste|incompetent|a nightmare|insane|beyond|joke)\b",
        r"\b(?:not|never|no) (?:really |even |exactly )?(?:helpful|helping|listening|reading|answering)\b",
        r"\byou (?:can't|cannot|can not|won't|aren't going to) (?:actually |really |even )?help\b",
        # A comparison that demeans: "I've had better service from a vending machine".
        r"\b(?:had|get|got|getting) (?:better|more) (?:service|help|sense|answers?) (?:out of|from)\b",
        # Negated or stressed ("you can't even help", "you do understand"), not hoped or thanked
        # for ("I hope you can help me", "you have helped a lot").
        rf"\byou (?:(?:do|did|are|were|have|can){_N} ?(?:even )?|(?:do|did) (?:even )?|(?:are|were|have|can) even )"
        r"(?:listen|read|understand|help|get it)",
        r"\b(?:don't|do not|didn't|did not|doesn't|does not|won't) (?:even )?(?:listen|read)\b",
        r"\b(?:are|r) (?:you|u) (?:even|kidding|serious|joking|a bot|a robot|reading|listening)\b",
        r"\bwhat(?:'s| is) wrong with (?:you|this)\b|\bwaste of (?:my |our )?(?:time|money)\b",
        r"\bthanks? (?:you )?(?:(?:so|very) much |a lot )?for nothing\b|\b(?:zero|no) help\b|\bdoes(?:n't| not) help\b|\bnot (?:an|the) answer\b",
        r"\bstop (?:telling|saying|repeating|sending)\b|\bread (?:my|what i)\b",
        # What the answer left out, held against it ("you forgot to tell me about X"), and how
        # to do the job next time ("Next time maybe mention the part that breaks prod").
        r"\byou (?:forgot|failed|neglected) to (?:tell|mention|say|warn|include)\b|"
        r"(?:^|[.!?]\s*)next time,? (?:maybe |perhaps |try (?:to )?|how about )?(?:mention|tell|say|warn|read|"
        r"check|test|include|think|listen)\b",
        r"\b(?:do|did) (?:you|u) (?:even )?(?:read|listen)\b|\bdo your job\b|\brip[- ]?off\b|\bscam",
        # Telling the service to mend its own thing: "fix your stuff", "sort your app out".
        r"\b(?:fix|sort) (?:your|ur) (?:own )?(?:stuff|shit|crap|app|site|website|system|servers?|game|"
        r"service|software|product|mess|process|platform)\b",
    ),
    *_ML_BLAME,
)
_ESCALATE = Shapes(
    any_of(
        r"\b(?:speak|talk|chat|connect me|put me through|transfer me) (?:to|with) (?:a |an |your |the )?"
        r"(?:real |actual |live )?(?:human|person|agent|manager|supervisor|someone|representative|rep|operator|people)\b",
        # Not a priority raised ("escalated to urgent").
        r"\b(?:real|actual|live) (?:human|person|people)\b|\bhuman being\b|"
        r"\bescalat(?:e|ed|ing)\b(?! (?:\w+ )?to (?:urgent|priority|high|a higher priority)\b)",
        # "If I don't hear from an actual manager today": someone real, not the one answering.
        r"\b(?:a|an|your|the) (?:real|actual|proper) (?:manager|supervisor|person|human)\b",
        r"\b(?:your|a|the) (?:manager|supervisor)\b|\bsomeone (?:senior|in charge|competent|who can|"
        r"with (?:the )?authority)\b",
        # "Is there a human I can speak to?"
        r"\b(?:a|an|any|some) (?:real |actual |live )?(?:human|person|manager|supervisor)\b[^.?!]{0,30}"
        r"\b(?:speak|talk|chat)\b",
        r"\b(?:pass|forward|refer|escalate) (?:this|me|it|my \w+) (?:on |up )?to\b",
        # Going over the head of the one answering: "I will be raising this with our account
        # manager", "taking it up with your director".
        r"\b(?:rais|tak)(?:e|es|ing) (?:this|it|the matter)(?: up)? with (?:our|my|your|the) (?:\w+ ){0,2}"
        r"(?:manager|supervisor|director|head|management|board|lawyer|solicitor)\b",
        # In any voice: "I would like this passed to the branch manager".
        r"\b(?:passed|forwarded|referred|escalated|put through) (?:on |up )?to (?:a |an |the |your )?"
        r"(?:\w+ )?(?:manager|supervisor|someone|somebody|person|human|head|director|complaints)\b",
        # Asking whom at all, with no topic: not routing ("who do I ask about parking?") but
        # asking past the one answering ("who do I actually talk to").
        r"\bwho (?:do|can|should|could) (?:i|we) (?:\w+ )?(?:talk|speak|complain|write|go) to\s*(?:[.?!]|$)",
    ),
    *_ML_ESCALATE,
)
_LEAVE = Shapes(
    any_of(
        r"\bcancel(?:l?ing|led)? (?:my|the|this|our) (?:\w+ )?(?:account|subscription|membership|plan|service|"
        r"contract)\b",
        r"\b(?:close|delete|terminate) my account\b|\bunsubscrib",
        r"\b(?:switch|switching|go|going|move|moving|take|taking) (?:my business |my money )?(?:to|over to) "
        r"(?:a |your )?(?:competitor|another|different|someone else|elsewhere)\b|\btaking my business\b",
        r"\bnever (?:use|using|buy|buying|order|ordering|fly|flying|shop|shopping|come|coming)"
        r"(?: \w+){1,3} again\b",
        r"\b(?:bad|negative|1-star|one-star|one star) review\b|\bchargeback\b|\bmy lawyer\b|\bsue\b",
        r"\bdisput(?:e|ing) (?:it|this|the (?:charge|payment|transaction|invoice|bill|fee))\b|"
        r"\b(?:with|to) my (?:bank|card issuer)\b",
        # "This is the last shipment we send with you": the last of something with this service.
        r"\b(?:the|my|our) last (?:\w+ ){1,2}(?:i|we)(?:'ll| will)? (?:\w+ ){0,2}(?:with|from|through|to) you\b",
        # "This is the last time I order from you", "Last time I use your company": a present or
        # future verb, not a memory ("last time I ordered from you it came in two days").
        r"\blast time (?:i|we)(?:'ll| will)? (?:use|order|buy|fly|book|shop|come|deal|work|ship|travel|"
        r"stay|trust)\b(?: \w+){0,2}? (?:with |from |at |through |to )?(?:you|your)\b",
        r"\b(?:file|filing|lodge|lodging|make|making|submit|submitting) (?:a )?(?:formal |official )?complaint\b",
        # Or the turn itself made one ("Please treat this as a formal complaint").
        r"\b(?:treat|log|register|record) (?:this|it|my \w+) as an? (?:formal |official )?complaint\b",
        r"\breport(?:ing)? (?:you|this|it|them|the \w+)\b|"
        r"(?<!\bonce i'm )(?<!\bwhen i'm )(?<!\bsoon as i'm )(?<!\bafter i'm )(?<!\buntil i'm )"
        r"\bdone with (?:you|this|your|it)\b",
        # Not away from home ("leave it with my neighbour if I'm out", "while I'm out").
        r"(?<!\bif )(?<!\bwhen )(?<!\bwhile )(?<!\bin case )(?<!\bwhenever )"
        r"\b(?:i'm|i am) (?:leaving|out)\b|\bcompetitors?\b|\bgo(?:ing)? elsewhere\b|\bporting\b",
        # Not asked of the item ("Is it made by Caterpillar, or is it a different brand?").
        r"(?<!\bis it )(?<!\bis this )(?<!\bis that )(?<!\bit's )(?<!\bby )(?<!\bfrom )"
        r"\b(?:another|a different|other|a new) (?:bank|carrier|provider|company|service|app|store|"
        r"airline|vendor|platform|supplier|insurer|shop|clinic|doctor|hospital|school|course|gym|host|"
        r"firm|agency|broker|dealer|garage|lawyer|landlord|vet|pharmacy|operator|network|brand)\b"
        # Not "a new store gift card", "another brand credit": a way to be paid, from this one.
        r"(?!\W{1,2}(?:e\W?)?(?:credit|gift|card|voucher|coupon|points))",
        # Not "be transferred to another agent": the service's routing.
        r"(?<!\bbe )(?<!\bbeing )(?<!\bget )\b(?:mov|switch|transferr|tak|port)(?:e|ed|ing)? (?:my |our |the )?"
        r"(?:\w+ ){0,2}(?:to|over to) "
        r"(?:another|a different|a new|a competitor|your competitor|someone else)\b",
        # An ultimatum: "send a technician or I'm returning it".
        r"\bor (?:else )?(?:i'm|i am|i'll|i will|we're|we will|we'll)\b",
        # Or with the consequence as the subject: "... or the review goes up tonight".
        r"\bor (?:else )?(?:the|my|a) (?:\w+ ){0,2}(?:review|complaint|chargeback|lawyer|solicitor)\b",
        # A deadline ("unless ... by Friday").
        # Or a step the user will take if it stays unresolved ("I will raise it with the council
        # if it is not resolved this week").
        r"\b(?:i|we)(?:'ll| will| shall)\b[^.?!]{0,60}\bif (?:it|this|that|the \w+)(?: is|'s)? "
        r"(?:not|n't|never)\b[^.?!]{0,20}\b(?:resolved|fixed|sorted|refunded|corrected|paid)\b",
        r"\bunless\b[^.?!]{0,60}\bby (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
        r"tomorrow|tonight|today|noon|the end|end of|\d)|\bunless\b[^.?!]{0,60}\b(?:today|tonight)\b",
        r"\b(?:not|won't|will not|refuse to) (?:be )?pay(?:ing)?\b|\bstop charging\b",
        # Staying put until it is done ("I'm not leaving until someone gives me the letter",
        # "I won't hang up until ..."): a sit-in, the same ultimatum.
        r"\b(?:not|won't|will not|refuse to) (?:be )?(?:leav(?:e|ing)|hang(?:ing)? up|go(?:ing)? anywhere|"
        r"mov(?:e|ing))\b[^.?!]{0,20}\buntil\b",
        # The business itself put in doubt: "reviewing whether we renew the agreement".
        r"\b(?:review|reviewing|reconsider|reconsidering|rethink|rethinking) (?:whether|if) (?:we|i)(?:'ll| will)? "
        r"(?:renew|continue|stay|keep|extend)\b",
        r"\bdelet(?:e|ing) (?:the|this|your) (?:app|account)\b|\btelling everyone\b|\bused to be good\b",
        # Not the bookings the user no longer needs ("so I won't be using those tickets").
        r"\bwon't be (?:ordering|using|buying|coming|renewing|booking|back)\b"
        r"(?! (?:those|these|them|the|my|that|this|it)\b(?![^.?!]*\b(?:again|anymore|any more|ever)\b))",
        r"\b(?:on|to) (?:twitter|facebook|reddit|social media|trustpilot|yelp|google reviews)\b",
        # Taking it to someone with power over the service.
        r"\b(?:i'm|i am|i'll|i will|going to) (?:be )?(?:call|calling|contact|contacting|report|reporting|"
        r"writing to|complain(?:ing)? to) (?:the |my )?(?:city|council|police|regulator|ombudsman|"
        r"lawyer|press|media|authorities|trading standards|consumer)",
        r"\b(?:go|going|went|take|taking) (?:this |it )?to (?:the )?(?:police|regulator|ombudsman|press|"
        r"media|trading standards|small claims|court|consumer)",
    ),
    *_ML_LEAVE,
)
_GIVE_UP = Shapes(
    any_of(
        # "Whatever." said on its own, not "whatever card was used".
        r"\bforget (?:it|about it)\b|\bnever ?mind\b|\bwhatever\s*(?:[.!?,;]|$)|\bi give up\b|\bgiving up\b",
        # Not a step's end planned ("I'll let you know as soon as I'm done with this step").
        r"\bdon't bother\b|\bnot worth (?:it|my)\b|\bno point\b|"
        r"(?<!\bonce )(?<!\bwhen )(?<!\bsoon as )(?<!\bafter )(?<!\buntil )(?<!\bif )\b(?:i'm|i am) done\b",
        r"\bfed up\b|\bsick (?:and tired )?of\b|\btired of\b|\bhad enough\b|\bi can't (?:believe|deal)\b",
        r"\bwhy (?:do|did|should|would) (?:i|we) (?:even |still )?bother\b|\bwhy bother\b",
        # Resigned to doing the service's job or to the loss: "I'll go write a scraper, I
        # guess", "I'll just pay it and deal with it myself". A plan alone ("I'll rebook the
        # flight myself later", "I'll just buy the 15 units then") is a customer's choice.
        r"\bi(?:'ll| will)\b[^.?!]{0,80},? i guess\s*(?:[.!]|$)|"
        r"\bi(?:'ll| will) (?:just )?(?:\w+ ){0,6}(?:deal with|do|figure|sort|fix) (?:it|this|that)(?: \w+)?"
        r"(?: out)? myself\b",
        # The resigned plan put as a question back ("I'll just go without then, shall I."):
        # the tag asks nothing, it says the service left no other way.
        r"\bi(?:'ll| will) just\b[^.?!]{0,80},\s*(?:shall|should) i\s*(?:[.?!]|$)",
    ),
    *_ML_GIVE_UP,
)
_IMPATIENT = Shapes(
    any_of(
        r"\b(?:how|why) (?:much )?(?:long|longer)\b|\b(?:still|been) waiting\b|\bunbelievable\b|\bunreal\b",
        # "Right now" demanded ("I need it sorted right now!"), not a state ("I don't have the ID
        # handy right now").
        r"\b(?:need|want|fix|sort|do|give|send|refund|cancel|call|get)\b[^.?!]{0,40}\bright now\b|"
        r"\bright now\s*!|"
        r"\bseriously\b|\bcome on\b|\bugh+\b|\bwtf\b|\bomg\b|\basap\b|"
        # "my patience", not thanks for "your patience".
        r"(?<!your )(?<!the )\bpatience\b",
        r"\b(?:fix|sort|solve|do) (?:it|this)\b[^.?!]{0,20}\bnow\b|\bi demand\b",
        r"\bpick one\b|\bno choice\b|\bthis is (?:not|n't) (?:normal|ok|okay|acceptable|fair|right)\b",
        # An eye-roll, a huff, a face-palm, the upside-down smile of "just great".
        r"[\U0001F644\U0001F624\U0001F621\U0001F92C\U0001F620\U0001F926\U0001F612\U0001F643]",
    ),
    *_ML_IMPATIENT,
)
# What the user has put in (money, time, loyalty, attempts): said in anger, it is leverage.
_INVESTED = Shapes(
    any_of(
        r"\bi (?:have |'ve )?(?:paid|pay|spent|spend)\b|\bi(?:'m| am) paying\b|\b(?:customer|member|client|subscriber) (?:for|since|of)?\s*\d",
        r"\b(?:customer|member|client|subscriber) (?:for|since) \w+ (?:years?|months?)\b",
        r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|many) (?:years?|months?) "
        r"(?:of|playing|using|with|as)\b",
        r"\bi(?:'ve| have)? (?:waited|been waiting|been asking|been trying|been calling|been chasing)\b",
        r"\bi(?:'ve| have)? (?:asked|called|emailed|written|submitted|sent|tried|chased)\b[^.?!]{0,40}"
        r"\b(?:twice|three times|\d+ times|several times|many times|again|for (?:days|weeks|months))\b",
        r"\b(?:i've|i have) (?:sent|emailed|called|written|contacted) (?:\d+|two|three|four|five|several|many)\b",
    ),
    *_ML_INVESTED,
)
# Asking for redress in the first person ("I'd like the fee back", "I want my day refunded"):
# the user counts a loss, whatever the politeness around it.
_REDRESS = Shapes(
    any_of(
        r"\bi(?:'d| would)? (?:want|like|demand|expect|need)\b[^.?!]{0,60}"
        r"\b(?:refund(?:ed)?|back|compensat(?:ed|ion)|reimburs(?:ed|ement))\b",
        # Or announced: "I will ask for a refund", "I'm claiming compensation".
        r"\b(?:ask|asking|claim|claiming|request|requesting) (?:for )?(?:a |my |the )?(?:full )?"
        r"(?:refund|compensation|reimbursement)\b",
        # Money asked back is redress, not leaving: the customer stays to be refunded.
        r"\bfull refund\b|\bmy money back\b",
    ),
    *_ML_REDRESS,
)
# Questions that accuse rather than ask ("Does anyone there actually check?").
_ACCUSING = any_of(
    # Not "even if / even though" (a concession).
    # "Actually" of what a person does ("did you actually read it?", "does anyone there actually
    # check?"), not of a thing checked ("is the HT-45 actually out of stock? The list says 0").
    r"\b(?:you|anyone|anybody|somebody|someone|they|he|she|people|staff)(?: \w+)? actually\b|"
    r"\b(?:even(?! (?:if|though|when|so)\b)|anyone|anybody|nobody|no one|based on what|"
    r"how (?:is|does|can|could) (?:that|this|it|a|an|the|you)|what(?:'s| is) the point|"
    r"a joke|so (?:hard|difficult|complicated))\b",
    # Whether the one answering grasps it at all ("do you understand that?", "do you even
    # get what I'm asking?").
    r"\bdo you (?:even |actually |really )?(?:understand|reali[sz]e|get)(?: (?:that|this|me|what|how))?\s*\?",
    # "Who" opening the question ("Who checks these?", "So who is responsible?", "From
    # who??"), not after the person it describes ("a supervisor who might make an exception"),
    # nor asking how tasks are shared ("who fills what?", "who brings which dish?").
    r"(?:^\W*|[,;:]\s*|\b(?:and|but|so|then) )(?:(?:from|by|to|with|for) )?whom?\b(?! \w+ (?:what|which)\b)",
)
# "Actually, ..." opening a sentence brings in a new fact; "did you actually read it?" accuses.
_OPENING_ACTUALLY = re.compile(r"^\W*(?:oh,? |well,? )?actually\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])")


# Terse users drop the question mark: "who here actually deals with this".
_QUESTION_START = re.compile(
    r"^\W*(?:\w+,\s*)?(?:who|what|why|how|where|when|does|do|is|are|can|will|did)\b", re.IGNORECASE
)


# A demand with a consequence ("refund or I go to ..."); asked, it offers a choice ("can you
# send it or I collect?").
_ULTIMATUM = any_of(
    r"(?:^\W*(?:(?:just|please|so|now|then)\W+)?|\byou (?:need to|must|have to|had better|'d better|"
    r"better) )(?:refund|fix|sort|replace|repair|unlock|cancel|send|call|reply|respond|deliver|"
    r"return|compensate)\b[^.?!]{0,40}\bor (?:else|i|we)\b"
)


# The ultimatum put as its condition first, with a deadline: "If this isn't paid by Friday
# I'm going to ...", "Якщо до п'ятниці грошей не буде — ...". A condition that something
# will not be done by a set day says what follows when it is not; asked ("if it isn't here
# by Monday, can I get a refund?"), it is a question. Per language: the "if", a negation
# and a deadline (a weekday, tomorrow, tonight, an end) in one clause, in either order.
_DEADLINE_IF = Shapes(
    any_of(
        r"\b(?:if|unless)\b(?=[^.?!]{0,80}?(?:\bnot\b|n't\b|\bnever\b|\bno\b))[^.?!]{0,80}?"
        r"\b(?:by|before|until|till) (?:the end of |end of )?(?:monday|tuesday|wednesday|thursday|friday|"
        r"saturday|sunday|tomorrow|tonight|today|noon|midday|this week|next week|the weekend|the month)\b"
    ),
    # es, pt, fr, it, de, nl
    (
        r"\bs[ie]\b(?=[^.?!]{0,80}?\b(?:no|n[ãa]o|nada)\b)[^.?!]{0,80}?\b(?:para el|antes del?|hasta el|at[ée] (?:a|o)?)\s*"
        r"(?:mediod[ií]a|meio-dia|lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|domingo|ma[ñn]ana|hoy|fin|segunda|ter[çc]a|"
        r"quarta|quinta|sexta|amanh[ãa]|hoje)\b"
    ),
    (
        r"\bsi\b(?=[^.?!]{0,80}?\b(?:pas|rien|aucune?|jamais)\b)[^.?!]{0,80}?\b(?:d'ici|avant|pour) "
        r"(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|demain|ce soir|ce week-end|la fin|midi|minuit)\b"
    ),
    (
        r"\bse\b(?=[^.?!]{0,80}?\bnon\b)[^.?!]{0,80}?\b(?:entro|per|prima di) "
        r"(?:luned[iì]|marted[iì]|mercoled[iì]|gioved[iì]|venerd[iì]|sabato|domenica|domani|stasera|la fine|mezzogiorno)\b"
    ),
    (
        r"\b(?:wenn|falls|sollte)\b(?=[^.?!]{0,80}?\b(?:nicht|kein\w*|nie)\b)[^.?!]{0,80}?\b(?:bis|vor) "
        r"(?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|morgen|heute|ende|mittag)\b"
    ),
    (
        r"\bals\b(?=[^.?!]{0,80}?\b(?:niet|geen|nooit)\b)[^.?!]{0,80}?\b(?:voor|v[óo][óo]r|uiterlijk) "
        r"(?:maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag|morgen|vanavond|het eind|de middag)\b"
    ),
    # ru, uk, pl: "если/якщо/jeśli ... до пятницы/п'ятниці/piątku ... не/nie".
    (
        r"(?:\b(?:если|якщо|коли|jeśli|jeżeli|je[śs]li)\b)(?=[^.?!]{0,80}?(?:\bне\b|\bнет\b|\bнема\w*|\bnie\b))"
        r"[^.?!]{0,80}?(?:\b(?:до|к)\s+(?:понедельник\w*|вторник\w*|сред\w*|четверг\w*|пятниц\w*|суббот\w*|"
        r"воскресень\w*|понеділ\w*|вівтор\w*|серед\w*|четвер\w*|п['’]ятниц\w*|субот\w*|неділ\w*|"
        r"завтра|вечер\w*|вечор\w*|конц\w*|кінц\w*)|\bdo\s+(?:poniedzia[łl]ku|wtorku|[śs]rody|czwartku|"
        r"pi[ąa]tku|soboty|niedzieli|jutra|ko[ńn]ca))"
    ),
)


def _leaves(text: str) -> bool:
    return bool(_LEAVE.search(text)) or any(
        (_ULTIMATUM.search(s.strip()) or _DEADLINE_IF.search(s)) and not s.rstrip().endswith("?")
        for s in _SENTENCE_END.split(text)
    )


# A request made as a transaction ("I want to cancel the reservation and get a full refund",
# "Yes please cancel my subscription", "I'd like the $25 seat fee back"): what a customer
# came to do, not a threat, when nothing else in the turn complains.
_REQUEST = any_of(
    r"^\W*(?:(?:yes|ok|okay|sure|then|and|also|so|hi|hello|in that case)\W+)*(?:please |kindly |just )?"
    r"(?:i(?:'d| would)?(?: really| just| also| still| definitely| only)? (?:like|want|need|wish|prefer)\b|i(?:'m| am) (?:writing|calling|contacting you|"
    r"here) to\b|(?:can|could|would|will) (?:you|i|we)\b|please\b|cancel\b[^.?!]*\bplease\b)",
    # Or after a reason or the story so far: "Given the circumstances, I would like a full
    # refund, please", "I booked it this morning and I really want to cancel it and get a
    # full refund"; or after granting the answer: "I understand, but I'd like a full refund".
    r"(?:,|\band|\bbut) (?:so )?i(?:'d| would)?(?: really| just| also| still| definitely| only)? (?:like|want|need)"
    r" (?:to|a|my|the)\b",
)
_BUSINESS = frozenset(("threatens to leave", "asks for redress", "sarcasm"))
_ASKING = frozenset(("asks for a human",))  # asking, not complaining
_THREAT_OR = re.compile(r"\bor (?:else )?(?:i|we|the|my|a|you)\b|[!?]\s*[!?]", re.IGNORECASE)


def _requests(text: str) -> list[str]:
    """The sentences of ``text`` that ask, plainly, to cancel or to be refunded."""
    return [
        p
        for p in _SENTENCE_END.split(text)
        if _REQUEST.search(p.strip())
        and (_LEAVE.search(p) or _REDRESS.search(p))
        and not _THREAT_OR.search(p)
    ]


# The assistant offered a person ("Would you like me to transfer you to a human agent?"):
# the customer's "Yes, please transfer me" accepts the offer, it does not demand past it.
_OFFERS_HUMAN = any_of(
    r"\btransfer(?:ring)? you\b|\b(?:a|the) (?:human|live) (?:agent|representative)\b|"
    r"\b(?:contact|speak (?:to|with)|reach) (?:a|our) (?:human|supervisor|specialist|agent)\b"
)
# Taking the offer up, in any language's yes or by asking for the very thing offered
# ("Transfer me to a human agent.").
_ACCEPTS = re.compile(
    r"^\W*(?:(?:and|so|then|also)\W+)?(?:yes|yeah|yep|ok|okay|sure|alright|please|that would|"
    r"i'd like that|oui|s[ií]|ja|da|transfer me|connect me|put me through)\b",
    re.IGNORECASE,
)
# Turning a person down ("I don't want to be transferred", "please do NOT transfer me", "I'm
# not asking to be escalated"): the customer wants this assistant to help; no demand past it.
_REFUSES_HUMAN = re.compile(
    r"\b(?:i|we|please)\b(?:'\w+)?(?: \w+){0,3}? (?:do not|don't|not|never|rather not)\b"
    r"(?: \w+){0,4}? (?:transferr?\w*|escalat\w*|bounced|passed|put through|speak|talk)\b[^.?!;,]*",
    re.IGNORECASE,
)


def _unoffered(text: str, said: str) -> str:
    """``text`` without the clauses that turn a person down, or the sentences that accept
    one the assistant offered."""
    text = _REFUSES_HUMAN.sub(" ", text)
    if not _OFFERS_HUMAN.search(said):
        return text
    return " ".join(p for p in _SENTENCE_END.split(text) if not _ACCEPTS.search(p.strip()))


# A quoted name or code the assistant offered ("the "Habitacion Doble"", "Filtro Aceite
# PC200"): every word capitalised or holding a digit. Picking an option by its name is no
# mockery; thrown-back words are the reply's phrasing ("a short delay in processing").
_NAME = re.compile(r"\W*(?:(?:[A-Z]|\w*\d)[\w'.-]*\W*)+")


# Asking for a person as a favour ("Could you please transfer me to someone who can assist
# further?", "Is there any way to escalate this?", "If you still see Silver, I'd like to speak
# to a supervisor."): a question or a polite wish, after the assistant could not do it. It
# adds nothing; the rest of the turn says whether the customer is heated. Not a "real
# person" (the one answering is none) nor an accusing question ("someone who can actually
# help?").
_PLEA = any_of(
    r"^\W*(?:[^.?!]{0,120},\s*)?(?:(?:or|and|so|but|then|also|please)\W+)?"
    r"(?:(?:could|can|would|may|will) (?:you|i|we|someone)|is (?:there|it possible)|are there|maybe|"
    r"i(?:'d| would) (?:really |rather |also )?(?:like|appreciate|prefer))\b"
)
_WISH = any_of(
    r"^\W*(?:[^.?!]{0,120},\s*)?i(?:'d| would) (?:really |rather |also )?(?:like|appreciate|prefer)\b"
)
_NOT_THIS_ONE = any_of(
    r"\b(?:real|actual|proper) (?:human|person|people|manager|supervisor|agent)\b|\bhuman being\b"
)


# A person asked for only if the check fails ("If your system still doesn't show it after
# rechecking, please transfer me to a human agent"): a fallback, not a demand now.
_FALLBACK = any_of(r"^\W*(?:and |but )?(?:if|should|in case)\b[^.?!]{0,160},\s*(?:then\s+)?please\b")


def _pleas(text: str) -> str:
    """``text`` without its polite asks for a person (``_PLEA`` ending in "?", a wish, or a
    fallback) that complain of nothing else."""
    return " ".join(
        p
        for p in _SENTENCE_END.split(text)
        if not (
            (
                (_PLEA.search(p.strip()) and (p.rstrip().endswith("?") or _WISH.search(p.strip())))
                or _FALLBACK.search(p.strip())
            )
            and not _NOT_THIS_ONE.search(p)
            and not _ACCUSING.search(_OPENING_ACTUALLY.sub(" ", p))
            and not any(f(p) for f in (REPEATING.search, _BLAME.search, _leaves, _GIVE_UP.search))
        )
    )


def _accusing_question(text: str) -> bool:
    """A question sentence with an accusing word; sentences split first (linear time)."""
    return any(
        (s.rstrip().endswith("?") or _QUESTION_START.search(s))
        and _ACCUSING.search(_OPENING_ACTUALLY.sub(" ", s))
        for s in _SENTENCE_END.split(text)
    )


# Saying how they feel about the service, in so many words.
DISPLEASED = Shapes(
    any_of(
        r"\bnot (?:at all )?(?:happy|pleased|satisfied|impressed|ok with)\b|\b(?:unhappy|dissatisfied)\b",
        r"\b(?:i'm|i am|we're|we are|i feel|getting|really|very|so) (?:\w+ )?(?:disappointed|furious|"
        r"livid|angry|annoyed|upset|pissed|fuming|frustrated|exasperated|appalled|disgusted)\b",
        r"\b(?:losing|lost|run(?:ning)? out of) (?:my |all )?patience\b|\bmore than patient\b|"
        r"\bend of my (?:rope|tether)\b|\bwits'? end\b|"
        r"\bregret (?:ever |even )?(?:\w+ing|it)\b|\bexpected (?:much )?(?:better|more)\b|"
        # "Not good enough." said as a verdict, not "not good enough for my schedule".
        r"(?:^|[.!?]\s*)(?:that's |this is |it's |simply |just )?not good enough\s*(?:[.!?]|$)|"
        r"\bgetting (?:silly|ridiculous|absurd|beyond|out of hand|old)\b",
    ),
    *_ML_DISPLEASED,
)
_NOBODY = any_of(
    r"\b(?:nobody|no one|no-one|noone)\b",
    r"\b(?:nadie|niemand|nessuno|ningu[ée]m)\b|\bpersonne (?:ne|n')",  # es, de/nl, it, pt, fr
    r"\bnikt\b|\bkimse\b",  # pl, tr
)
# "That worked": the problem is gone.
_WORKED = Shapes(
    any_of(
        # "That works (for me)", not a clause about a thing ("a connection that works during
        # office hours"): nothing but an end, a "for me", "now" or a "fine" after it.
        r"\b(?:that|it|this) (?:works|worked)\b(?=\s*(?:$|[.!,;:)]|for (?:me|us)\b|now\b|again\b|fine\b|"
        r"perfectly\b|great\b|well\b|thanks?\b|thank you\b))",
        r"\b(?:that|it|this) (?:fixed it|did it|did the trick|helped|helps|solved|"
        r"cleared it|sorted it)\b|\b(?:fine|ok|okay|all good|good) now\b",
        # Not the state wished for: "I need to get this resolved now."
        r"(?<!get this )(?<!get it )(?<!get that )(?<!be )"
        r"\b(?:all )?(?:sorted|resolved|fixed|solved)(?: now)?[.!]|\bworks now\b|\bworking now\b",
        r"\bfound (?:it|them)\b",
    ),
    *_ML_WORKED,
)
_THANKS = Shapes(
    any_of(
        r"\b(?:thanks|thank you|thx|ty|cheers|appreciated|grateful)\b|\bappreciate\b(?! it if| if)",
        _WORKED.english.pattern,
        r"\b(?:perfect|awesome|excellent|brilliant|great|wonderful)[.!]|\bgot it\b|\bmakes sense\b",
    ),
    *_ML_WORKED,
    *_ML_THANKS,
)
# Praise words users turn against the assistant when a complaint surrounds them.
# "this is such crap", "you're hopeless": a judgement of the help or the service, with the
# lexicon saying whether the word judges badly.
_JUDGED = re.compile(
    r"\b(?:(?:this|that|it|you|which|(?:this|that|your|the) \w+)(?:'s|'re| is| are| was| were)"
    r"|what a|such a) "
    r"(?:so |such |just |really |totally |completely |absolutely |utterly |a |an )*([a-z]+)\b"
    # Not a word before its noun ("this is a serious family emergency"): it judges the noun.
    r"(?! (?!and\b|but\b|or\b|to\b|that\b|of\b|for\b|when\b|because\b|as\b|if\b)[a-z]+\b)",
    re.IGNORECASE,
)
_JUDGED_VALENCE = -1.5


# A question of yes or no ("Is it likely that this is cancer?", "Could it be serious?"):
# a word it asks about is no verdict the user gives.
_YES_NO_QUESTION = re.compile(
    r"\W*(?:(?:so|and|but|or|well|i mean|okay|ok)\W+)*(?:is|are|was|were|do|does|did|could|can|would|"
    r"will|should|might|may|has|have)\b[^.!?]*\?",
    re.IGNORECASE,
)


def _asked_whether(text: str, at: int) -> bool:
    """The clause of ``text`` around position ``at`` asks a yes-or-no question."""
    start = max(text.rfind(c, 0, at) for c in ".!?\n,;:—–") + 1
    return bool(_YES_NO_QUESTION.match(text, start))


def bad_judgements(text: str) -> set[str]:
    """The words by which ``text`` calls something bad ("That's ridiculous.", "this is
    outrageous"): negative judgements, by the lexicon, of what was said or done."""
    lex = lexicon()
    found = [*_JUDGED.finditer(text), *_JUDGED_SEEMING.finditer(text)]
    return {w for w in (m.group(1).lower() for m in found) if lex.get(w, 0.0) <= _JUDGED_VALENCE}


# The same verdict hedged ("That seems unfair.", "this sounds ridiculous"): still the answer
# called bad, for pushing back on it.
_JUDGED_SEEMING = re.compile(
    r"\b(?:this|that|it) (?:seems|sounds|looks|feels)(?: (?:so|really|very|quite|pretty|totally|a bit))? "
    r"([a-z]+)\b",
    re.IGNORECASE,
)


_ON_NEWS = re.compile(r"(?:that|it|this)(?:'s| is| was)\b", re.IGNORECASE)
# A feeling about the situation, then taken in its stride ("That's frustrating, I
# understand. My budget is 150", "That's frustrating. Okay, I'll pay by transfer"): the
# customer accepts the answer; the feeling judges nothing the service did. So does asking
# what else there is ("That's disappointing. Is there any other gesture you can offer?").
_FEELING = frozenset(
    (
        "frustrating", "annoying", "disappointing", "unfortunate", "sad", "confusing",
        "strange", "odd", "weird", "inconvenient", "stressful", "upsetting", "shame", "pity",
    )
)  # fmt: skip
# How bad what befell the user was ("a serious family emergency", "a sudden illness"): the
# circumstance, not a word about the service.
_BEFELL = re.compile(
    r"\b([a-z]+) (?:(?:family|personal|medical|health) (?:emergency|situation|matter|crisis|reasons?)|"
    r"(?:emergency|accident|illness|injury))\b",
    re.IGNORECASE,
)
# What befell the user, named as the reason for a request ("I have a family emergency, so I'd
# like to cancel", "there's been a death in the family"): a circumstance, not a mood at
# the service.
_MISFORTUNE = frozenset(
    (
        "emergency", "accident", "illness", "ill", "sick", "injury", "injured", "funeral",
        "death", "died", "cancer",
    )
)  # fmt: skip
# How a symptom feels, said of "it" ("it's uncomfortable but I can wait", "it's really sore"):
# the body's state told, not a verdict on the service.
_SENSED = re.compile(r"it(?:'s| is| was)\b", re.IGNORECASE)
_SENSATION = frozenset(
    ("uncomfortable", "painful", "sore", "itchy", "achy", "tender", "swollen", "numb", "stiff")
)  # fmt: skip
_ACCEPTS_IT = any_of(
    r"\bin that case\b|\binstead\b|\bi understand\b|(?:^|[.!?,]\s*)(?:ok(?:ay)?|fine|alright|all right|i see)\b|\bi(?:'ll| will)\b|\bthen\b",
    r"\b(?:any|another|some) (?:other |different )?(?:kind of )?(?:option|alternative|way|gesture|"
    r"solution|choice)s?\b|\bis there anything else\b",
    # Or anything else at all: "any other branch", "any chance of it elsewhere" ("elsewhere"
    # alone is as often a threat to leave).
    r"\bany other\b|\bany\W{1,3}chance\b",  # "*any* chance": emphasis marks
)

# Thanks for an act of service, named: what the assistant did, not what it failed to do.
_WISHED = any_of(
    r"\b(?:i|we)(?:'d| would) (?:(?:really|truly|greatly|very|so|much|be|also) )*(?:appreciate|happy|"
    r"grateful|glad|thankful)\b",
    r"\b(?:that|it|this) would be (?:\w+ )?(?:great|wonderful|helpful|perfect|lovely|appreciated)\b|"
    r"\bworks? (?:\w+ )?for (?:me|us)\b",
)
_THANKED_FOR = any_of(
    r"\b(?:thanks|thank you|i appreciate)(?: (?:so|very) much| again)? (?:you )?(?:for )?(?:checking|looking|"
    r"explaining|confirming|clarifying|helping|pulling|breaking|letting me know|walking me|trying|"
    r"(?:the|your) (?:\w+ )?(?:update|explanation|information|info|details|help|time|patience|effort|efforts)|"
    r"(?:being|your) patient)\b"
)
_PRAISE = Shapes(
    any_of(
        r"\b(?:great|perfect|fantastic|wonderful|brilliant|genius|lovely|amazing|awesome|super|"
        r"lov(?:e|ing)|excellent|helpful|nice|superb|marvell?ous|terrific)\b",
        # Milder words that praise only in these forms, the forms sarcasm takes.
        r"\boh,? (?:good|joy)\b|\bgood (?:job|one)\b|\bwell done\b",
    ),
    *_ML_PRAISE,
)
_POLITE = Shapes(
    any_of(r"\bplease\b|\bcould you\b|\bwould you\b|\bkindly\b|\bsorry\b|\bi appreciate\b"),
    *_ML_POLITE,
)
_NEGATORS = frozenset(
    "not no never nothing nobody none neither nor cannot without hardly".split()  # noqa: SIM905
)
# A shouted word is an ordinary word in capitals; ids and codes (SKU4432, HTTP_500) are not.
_CAPS_WORD = re.compile(r"\b[A-Z]{2,}\b")
_CODE_LIKE = re.compile(r"[A-Z]+[\d_-]|[\d_-][A-Z]+")
# Three or more capitalised words together ("WHY IS IT"): shouted, whatever their length; two
# are as often acronyms side by side ("MMSC URL").
_CAPS_RUN = re.compile(r"\b[A-Z]{2,}(?:[ \t,]+[A-Z]{2,}\b){2,}")
# A field's value in a listing ("Airplane Mode: ON", "Status: OFF;"): a setting read out.
_FIELD_VALUE = re.compile(r":\s*\**[A-Z]{2,}\**\s*(?:$|[\s,;.)-])")
_ACRONYM_MAX = 5  # longer all-caps runs are words shouted; shorter ones may be acronyms
_PRAISED = 1.0  # VADER valence of a word shouted in praise ("thank" 1.5, "love" 3.2)


@dataclass(frozen=True)
class Tone:
    """One user turn's heat: ``heat`` > 0 is frustration, < 0 calm satisfaction.

    ``cues`` names what was found, for the answer's reasoning; ``thanks`` is a calm thank
    you or "that worked" (not a sarcastic one); ``valence`` is VADER's compound for the
    user's own words.
    """

    heat: float
    cues: tuple[str, ...]
    thanks: bool
    valence: float = 0.0

    @property
    def glad(self) -> bool:
        """Glad words overall (VADER), whatever shapes the turn also has."""
        return self.valence >= _EXCITED


# Weights are log-odds-like units set from what each shape means: asking for a human or
# threatening to leave is a strong sign on its own; one "!!" or "again" is weak.
_W_REPEAT, _W_BLAME, _W_ESCALATE, _W_LEAVE, _W_GIVE_UP, _W_IMPATIENT = 1.0, 1.5, 2.0, 2.0, 1.5, 0.6
_W_INVESTED, _W_RHETORICAL, _W_NOBODY, _W_MOCK, _W_DISPLEASED = 0.8, 0.8, 0.6, 1.0, 0.8
_W_REDRESS = 1.0
_W_SHOUT, _W_BANG = 1.0, 0.6
_W_WORD = 0.35  # per unit of new negative valence (VADER's scale: "useless" -1.8)
_MAX_WORDS = 1.5
_THANKS_PULL = -1.5
_W_SARCASM = 0.8
_SARCASM_NEGATIVE = 3.0  # VADER units of negative words that make praise read as sarcasm
_POLITE_PULL = -0.3
_MILD = 1.0  # VADER valence under which a positive word negated says nothing ("want" 0.3)
# A turn this positive overall, with no shape of a complaint, is excited, not shouting:
# its capitals and "!!" are intensity for something ("THIS IS AMAZING!!").
_EXCITED = 0.5


def _shouted(text: str, known_caps: frozenset[str]) -> int:
    """Words in capitals that are words, not codes: a run of them, or one long one."""
    found = [
        m
        for m in _CAPS_WORD.finditer(text)
        if m.group(0) not in known_caps
        and not _CODE_LIKE.search(text[m.start() : m.end() + 1])
        and not _FIELD_VALUE.search(text[max(0, m.start() - 3) : m.end() + 1])
    ]
    if not found or sum(c.isupper() for c in text) > 0.9 * sum(c.isalpha() for c in text):
        # All of it in capitals: some users always write that way; count it once.
        return 1 if found else 0
    lex = lexicon()
    # Shouted praise ("THANK YOU", "LOVE") is not anger; a faintly positive word ("WANT"
    # 0.3) is no praise.
    found = [m for m in found if lex.get(m.group(0).lower(), 0.0) < _PRAISED]
    strong = [
        m
        for m in found
        if len(m.group(0)) > _ACRONYM_MAX or m.group(0).lower() in lex or m.group(0) in _SHOUTABLE
    ]
    if strong:
        return len(strong)
    # Short unknown words are acronyms ("PHX to SEA", "my HMO plan ... THIS week") unless they
    # stand together, a run shouted ("WHY IS IT").
    runs = [r.span() for r in _CAPS_RUN.finditer(text)]
    return sum(1 for m in found if any(a <= m.start() < b for a, b in runs))


# Short words users shout that are not in the valence lexicon (NOT, STILL, ...).
_SHOUTABLE = frozenset(
    (
        "NOT",
        "NO",
        "NEVER",
        "STILL",
        "AGAIN",
        "NOW",
        "WHY",
        "WHAT",
        "HOW",
        "DOES",
        "DID",
        "DOESN'T",
        "WORK",
        "WORKS",
        "STOP",
        "HELP",
        "ANY",
        "NOTHING",
        "ALREADY",
        "TOLD",
        "SAID",
        "EVERY",
        "SAME",
        "THREE",
        "TWICE",
        "ONCE",
        "MY",
        "THE",
        "IS",
        "IT",
        "YOU",
    )
)


# A choice set against another ("to my PayPal, not a gift card"): the "not" picks one thing
# over another; it does not turn "gift" into a complaint.
_CONTRAST = re.compile(r",\s*not (?=(?:a|an|the|my|your|in|on|by|to|for) )", re.IGNORECASE)


# A line that reads out a setting or a field ("- Signal Strength: Poor", "2. Status: failed").
_READING = re.compile(
    r"(?m)^[ \t]*(?:[-\u2022*]|\d+[.)])?[ \t]*[A-Za-z][\w /()'-]{0,40}:[ \t]*[^\n:]{1,60}$"
)
# Words of one stem are one feeling ("frustrated", "your frustration", "so frustrating").
_STEM = 5


def _stems(words: frozenset[str]) -> frozenset[str]:
    return frozenset(w[:_STEM] for w in words if len(w) >= _STEM)


def _known(word: str, known: frozenset[str], stems: frozenset[str]) -> bool:
    return word in known or (len(word) >= _STEM and word[:_STEM] in stems)


def _new_negative(
    text: str, known: frozenset[str], stems: frozenset[str] = frozenset()
) -> tuple[float, list[str]]:
    """Negative valence of the words the conversation had not used before this turn (nor
    others of their stem)."""
    lex = lexicon()
    toks = tokens(_CONTRAST.sub(", ", text))
    total, found = 0.0, []
    for pos, tok in enumerate(toks):
        v = lex.get(tok)
        # Negators are read as negation of what follows, not as negative words themselves.
        if v is None or _known(tok, known, stems) or tok in _NEGATORS:
            continue
        if any(t in _NEGATORS or t.endswith("n't") for t in toks[max(0, pos - 3) : pos]):
            if 0 < v < _MILD:  # "don't want to", "not worth": a choice, no mood
                continue
            v = -0.5 * v  # "not great" is mildly negative, "not bad" mildly positive
        if v < 0:
            total -= v
            found.append(tok)
    return total, found


# Quoted spans: someone else's words (a customer's review, an error message), or the
# assistant's own words thrown back at it, which is mockery.
QUOTED = re.compile(r"(?<!\w)['\"‘“]([^'\"‘’“”\n]{2,120})['\"’”](?!\w)")
# Scare quotes: a word or two of the service's own in quotes, ending the phrase ("loving
# this 'subscription'.", "so 'processing' means ...", "your 'express delivery'?"): doubt that
# it is what it is called. A label names a thing after it ("the 'reset' button") and a
# name is capitalised ("the 'Sunset' shade"); neither is doubt.
_ASKS_MEANING = re.compile(
    r"\bwhat (?:does|do|is|'s)\b|\bmean(?:s|t)? by\b|\bcalled\b", re.IGNORECASE
)
_SCARE = re.compile(
    r"\b(?:this|that|these|those|your|the|so|such|our|my)\s+['\"‘“]([a-z][a-z-]*(?: [a-z-]+)?)"
    r"['\"’”](?=\s*(?:[.!?,;:)]|$|(?:is|means|meant|was|were|has|does|again)\b))"
)


_FAMILIES = frozenset(
    (
        "repeating",
        "blame",
        "asks for a human",
        "threatens to leave",
        "gives up",
        "impatience",
        "what they put in",
        "accusing question",
        "nobody helps",
        "says so",
        "quotes the assistant back",
        "scare quotes",
        "asks for redress",
        "thanks for a repeat",
        "praise for a repeated reply",
        "praise for more of it",
        "praise as always",
        "praise for the reply's terms",
    )
)


# Thanking for a repeat of what did not help ("thanks so much for the FAQ link, again",
# "thank you for another 'we will call you'"): gratitude for help itself is not sarcasm.
_THANKS_FOR_REPEAT = any_of(
    r"\b(?:thanks|thank you)\b(?: \w+){0,3} for (?!(?:\w+ )?(?:help|patience|time|support|"
    r"assistance|everything)\b)[^.!?]{2,60}?(?:,\s*again|\s(?:yet again|once again|once more))\b",
    rf"\b(?:thanks|thank you)\b(?: \w+){{0,3}} for (?:yet another|the {_ORDINAL})\b",
)


# Praise for more of what did not help ("oh great, another form", "brilliant, a second
# form."): glad words for a repeat are sarcasm. A question ("Great, another one: can I ...?")
# asks.
_MORE_OF_IT = any_of(
    r"(?:^|[.!?;]\s*)\W*(?:oh,? |ah,? |wow,? |well,? )?(?:great|brilliant|wonderful|fantastic|lovely|"
    r"perfect|super|awesome|marvell?ous|terrific|yay|fab|cool|excellent|splendid|amazing)\b[,.!]*"
    r"\s+(?:just |so |and )?(?:another|a second|yet another|a 2nd|more)\s+[a-z][^.!?]*(?:[.!?]|$)",
    # The thing repeated quoted back ("Great, another 'could be'."): read with its quote gone.
    r"(?:^|[.!?;]\s*)\W*(?:oh,? |ah,? |wow,? |well,? )?(?:great|brilliant|wonderful|fantastic|lovely|"
    r"perfect|super|awesome)\b,?\s+(?:just |and )?(?:another|yet another)\s*[.!]",
)


# Praise "as always" ("Super helpful as always", "Fantastic customer experience as always"):
# the service praised for what it keeps doing, which is why the user is still asking. With
# thanks beside it ("Thanks, great service as always!") it is a regular's sincere praise.
_AS_EVER = any_of(
    r"\b(?:great|perfect|fantastic|wonderful|brilliant|lovely|amazing|awesome|super|excellent|"
    r"helpful|superb|terrific|splendid)\b(?:[ ,]+[\w-]+){0,3}?[ ,]+as (?:always|usual|ever)\b"
)


def _praised_as_ever(text: str) -> bool:
    return bool(_AS_EVER.search(text)) and not _THANKS.search(text)


def _more_of_it(text: str) -> bool:
    return any(not m.group(0).endswith("?") for m in _MORE_OF_IT.finditer(text))


# Praise that stands alone beside the reply's own terms said back flat ("5 business days.
# Of course.", "2 km away with two kids at 11pm. Lovely.", "Oh wonderful, a taxi, how
# generous."): the offer repeated for the user to hear how it sounds, the praise dry. Thanks
# beside it ("Stop 6, lovely, thank you") is a sincere taking of the answer. Only words of
# thanks count here: _THANKS also takes praise words ("Brilliant.") that are the praise itself.
_THANKS_WORD = re.compile(r"\b(?:thanks|thank you|thx|cheers|appreciated?)\b", re.IGNORECASE)
_PRAISE_ALONE = re.compile(
    r"^\W*(?:oh,? |well,? |wow,? |ah,? )?(?:lovely|wonderful|fantastic|brilliant|marvell?ous|splendid|"
    r"terrific|of course|how (?:generous|kind|thoughtful|lovely|nice|helpful|convenient))\W*$",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"[^.!?;,]+")
_SUBJECT = re.compile(
    r"\b(?:i|we|you|it|they|he|she|there|this|that|i'm|we're|you're|it's|they're|that's|there's|"
    r"please|can|could|would|will|is|are|do|does)\b",
    re.IGNORECASE,
)
_FLAT_ECHO_WORDS = 8  # a restated offer is a short fragment, not a sentence of its own


def _echoed_praise(text: str, spoken_words: set[str]) -> bool:
    if _THANKS_WORD.search(text):
        return False
    clauses = [c.strip() for c in _CLAUSE.findall(text) if c.strip()]
    return any(_PRAISE_ALONE.match(c) for c in clauses) and any(
        not _PRAISE_ALONE.match(c)
        and len(c.split()) <= _FLAT_ECHO_WORDS
        and not _SUBJECT.search(c)
        and any(w in spoken_words for w in content_tokens(tokens(c)))
        for c in clauses
    )


def _thanks_for_repeat(text: str) -> bool:
    return bool(_THANKS_FOR_REPEAT.search(text)) and not _WORKED.search(text)


# Negative words as intensity for something good: "ridiculous how good she is", "insane how
# well it works", and a bad adverb straight before a good word ("stupidly good", "crazy
# good"; not "worst support", an adjective on a noun).
_INTENSIFIER = re.compile(
    r"\b([a-z]+)\b(?= (?:how|what an?) (?:much |so )?([a-z]+))", re.IGNORECASE
)
_INTENSIFIED = re.compile(
    r"\b([a-z]+ly|crazy|damn|stupid|insane|mad)\b(?= ([a-z]+)\b)", re.IGNORECASE
)
# Surprise and bare intensity ("seriously", "omg", "no joke") are neither glad nor angry:
# left out of the valence (VADER reads "seriously" as in "seriously ill").
_MOODLESS = re.compile(
    r"\b(?:i )?(?:can't|cannot|couldn't) believe\b|\bseriously\b|\bomg\b|\bno joke\b",
    re.IGNORECASE,
)
# How the user felt before ("I was absolutely TERRIFIED beforehand", "I'd been panicking for
# weeks") or what they expected: the contrast to their mood now, not the mood.
_PAST_FEELING = re.compile(
    r"\b(?:i|we)(?: was| were| had been|'d been| have been|'ve been| felt)\b(?: \w+){0,3}? ?"
    r"(?:scared|terrified|nervous|worried|anxious|dreading|afraid|frightened|petrified|panicking|"
    r"panicked|stressed|apprehensive|losing (?:my )?patience|frustrated|fed up|going (?:mad|crazy))\b"
    r"[^.!?,;]{0,40}"
    # Or what they expected ("I was expecting a nightmare", "I thought it'd be a battle").
    r"|\b(?:i|we)(?: was| were|'d| had)? (?:expecting|expected|braced for|bracing (?:myself )?for|"
    r"thought (?:it|this|that)(?: would|'d) be)\b[^.!?,;]{0,40}",
    re.IGNORECASE,
)
# Regret at not having come sooner ("so annoyed I didn't buy it years ago", "damn, I
# should've come ages ago"): praise of what they found, the bad words aimed at themselves.
_OWN_REGRET = re.compile(
    r"(?:\b\w+,\s*)?[^.!?,;]{0,25}\b(?:i|we) (?:should(?:'ve| have)|wish (?:i|we)(?:'d| had)|didn't|did not|"
    r"hadn't|had not|never)\b[^.!?]{0,40}\b(?:sooner|earlier|years ago|ages ago|months ago|"
    r"long ago|before now)\b",
    re.IGNORECASE,
)


# Someone in the user's own life, whom the user may be angry at ("my neighbour", "our
# landlord"): not the service, and not the people the user is worried for.
OWN_PERSON = any_of(
    r"\b(?:my|our) (?:\w+ )?(?:neighbou?r|tenant|landlord|landlady|ex|boss|husband|wife|partner|"
    r"mum|mom|dad|mother|father|brother|sister|friend|colleague|flatmate|roommate|in-laws?|uncle|"
    r"aunt|cousin|teacher|coach|team|manager|director|client|customer)s?\b",
    # Or by a role outside the service ("the landlord", "the director"); "the manager" or
    # "the engineer" may be the service's own.
    r"\bthe (?:\w+ )?(?:neighbou?rs?|tenants?|landlord|landlady|director|boss|in-laws|bride|groom|"
    r"kids|children|family)\b",
)
# An institution in the user's life ("the school", "my bank", "the council"): anger at it
# is not anger at the assistant, unless the assistant may speak for it: it names it ("our
# school", "the bank's fraud team"), or, for "the ...", it speaks as "we" (then "the bank"
# may be its own). Not "the system" or "the airline": usually the service.
_INSTITUTION = re.compile(
    r"\b(the|my|our|his|her|their) (?:\w+ )?(school|university|uni|college|council|government|"
    r"bank|hospital|gp|surgery|embassy|consulate|ministry|agency|dvla|hmrc|irs|police|courts?|"
    r"post office|country)\b",
    re.IGNORECASE,
)
_SENTENCE_PART = re.compile(r"[^.!?;]+[.!?;]*")
_TURN = re.compile(r"(?=\bbut\b)", re.IGNORECASE)
_THIRD_PERSON = re.compile(r"^\W*(?:\w+,\s*)?(?:he|she)\b", re.IGNORECASE)
_ADDRESSED = re.compile(r"\b(?:you|your|yours|u|ur|y'all)\b", re.IGNORECASE)


_WE = re.compile(r"\b(?:we|we're|we've|we'll|our|us)\b", re.IGNORECASE)


def _speaks_for(body: re.Match[str], said: str) -> bool:
    named = re.search(rf"\b{re.escape(body.group(2))}", said, re.IGNORECASE)
    return bool(named) or (body.group(1).lower() == "the" and bool(_WE.search(said)))


def _without_others(text: str, *, own_people: bool, said: str = "") -> str:
    """``text`` without its sentences of anger at someone in the user's life: about their
    own person (or "he" / "she" once the user has named one) or an institution the
    assistant does not speak for (``said``: its words so far), read negative, and not
    addressed to the service ("He's been impossible about it, it's ridiculous")."""

    def about_others(sentence: str) -> bool:
        if _ADDRESSED.search(sentence):
            return False
        person = OWN_PERSON.search(sentence) or (own_people and _THIRD_PERSON.search(sentence))
        if person:
            return valence(sentence) < 0
        # An institution judged with a bad word or a verdict ("the school is a mess", "the
        # council is a joke"), whatever else VADER reads in the sentence ("honestly").
        # Not a complaint routed through it ("I'm disputing it with my bank", "the bank is
        # useless, third time this week"): only a verdict on it is left out.
        body = _INSTITUTION.search(sentence)
        if body is None or _speaks_for(body, said):
            return False
        routed = (REPEATING.search, _ESCALATE.search, _leaves, _GIVE_UP.search, _REDRESS.search)
        if any(found(sentence) for found in routed):
            return False
        lex = lexicon()
        return (
            valence(sentence) < 0
            or bool(_BLAME.search(sentence))
            or any(lex.get(w, 0.0) <= _JUDGED_VALENCE for w in tokens(sentence))
        )

    # A clause turned with "but" is a statement of its own ("the school is a mess right now
    # but at least this is sorted").
    parts = (c for m in _SENTENCE_PART.finditer(text) for c in _TURN.split(m.group(0)))
    return "".join(" " if about_others(c) else c for c in parts)


# Told in answer to the reply's question, a sentence about a person or a thing in the
# user's life ("the pain is a 7", "I'm scared", "he's getting weaker"), not said to the
# service, gives the situation, not heat at the assistant. A verdict ("this is awful",
# "worst support ever") is none of these.
_TOLD = re.compile(
    # After a stage direction a simulated caller writes ("*voice breaking*").
    r"^\W*(?:\*[^*]{1,80}\*\W*)?(?:[\w']+\W+){0,3}?(?:i|i'm|i've|i'd|me|we|we're|my|our|he|she|they|he's|she's|"
    r"they're|his|her|their|it|it's|the)\b",
    re.IGNORECASE,
)


def _without_told(text: str) -> str:
    """``text`` without its sentences that tell how someone or something is, neither
    addressing the service nor judging."""

    def told(sentence: str) -> bool:
        if _ADDRESSED.search(sentence) or _JUDGED.search(sentence):
            return False
        return bool(_TOLD.search(sentence))

    parts = (c for m in _SENTENCE_PART.finditer(text) for c in _TURN.split(m.group(0)))
    return "".join(" " if told(c) else c for c in parts)


_GOOD = 1.5  # VADER valence of a word intensity is for ("good" 1.9, "easy" 1.9)
# Words VADER does not score that are good for the one buying or using ("RIDICULOUSLY
# cheap", "stupid fast"); "ridiculously expensive" stays angry.
_GOOD_FOR_USER = frozenset(
    "cheap cheaper affordable fast faster quick quicker simple smooth quiet light handy".split()  # noqa: SIM905
)
_HOW_GOOD = 1.0  # after "how", a milder word will do ("how well" 1.1)


# Praise in violent words: "you're killing it", "you nailed it", "you guys crushed it".
_SLANG_PRAISE = re.compile(
    r"\b(?:you|u|you guys|y'all)(?:'re| are| r)? (?:\w+ )?(?:killing|crushing|smashing|slaying|nailing|"
    r"killed|crushed|smashed|slayed|nailed) it\b",
    re.IGNORECASE,
)


def _intensity_for(text: str) -> str:
    """``text`` without negative words that intensify a positive one, nor slang praise."""
    lex = lexicon()
    text = _SLANG_PRAISE.sub(" ", text)

    def drop_before_how(m: re.Match[str]) -> str:
        # Any word not itself praise: "absurd" is in no lexicon, and as bad here.
        bad, good = m.group(1).lower(), lex.get(m.group(2).lower(), 0.0)
        return (
            " "
            if lex.get(bad, 0.0) <= 0 and bad not in _NEGATORS and good >= _HOW_GOOD
            else m.group(0)
        )

    def drop_before_good(m: re.Match[str]) -> str:
        word = m.group(2).lower()
        bad = m.group(1).lower()
        good = lex.get(word, _GOOD if word in _GOOD_FOR_USER else 0.0)
        # "insanely" reads as "insane"; "not good" is negation, not intensity.
        v = lex.get(bad, lex.get(bad.removesuffix("ly"), 0.0))
        return " " if v < 0 and bad not in _NEGATORS and good >= _GOOD else m.group(0)

    return _INTENSIFIED.sub(drop_before_good, _INTENSIFIER.sub(drop_before_how, text))


# Intensity words that praise as readily as they damn ("that is INSANE", "you guys are
# unreal", "crazy fast"): read by the rest of the turn.
_AMBIVALENT = re.compile(
    r"\b(?:insane(?:ly)?|unreal|crazy|mad|wild|ridiculous(?:ly)?|unbelievabl[ey]|sick|nuts|"
    r"bonkers|absurd(?:ly)?|mental)\b",
    re.IGNORECASE,
)


def _for_good(own: str, glad_before: bool) -> str:
    """``own`` without its ambivalent intensity words when, without them, the turn reads
    glad, or not unhappy right after a glad turn (the mood goes on: "seriously insane.
    still hot too") or with the problem gone, and has no shape of a complaint: then they
    were intensity for what was good."""
    if not _AMBIVALENT.search(own):
        return own
    rest = _MOODLESS.sub(" ", _AMBIVALENT.sub(" ", own))
    mood = valence(_PAST_FEELING.sub(" ", rest))
    unhappy = (_IMPATIENT.search, DISPLEASED.search, _REDRESS.search, _NOBODY.search)
    if _complains(rest) or any(f(rest) for f in unhappy):
        return own
    # Or the problem is gone ("Unbelievable, it works!"): amazement.
    glad = mood >= _EXCITED or (mood >= 0.0 and glad_before) or bool(_WORKED.search(rest))
    return rest if glad else own


def _complains(text: str) -> bool:
    """A shape of a complaint about the service (not a feeling word: those are re-read)."""
    return any(
        found(text)
        for found in (REPEATING.search, _BLAME.search, _ESCALATE.search, _leaves, _GIVE_UP.search)
    )


def _present(own: str, mood: float) -> tuple[str, float]:
    """``own`` without past fears and regret at not coming sooner, with its valence: when
    what is left reads glad (the fear is over, the regret is praise) and nothing removed had
    the shape of a complaint."""
    spans = [m.group(0) for rx in (_PAST_FEELING, _OWN_REGRET) for m in rx.finditer(own)]
    if not spans or any(_complains(s) for s in spans):
        return own, mood
    rest = _OWN_REGRET.sub(" ", _PAST_FEELING.sub(" ", own))
    rest_mood = valence(_MOODLESS.sub(" ", rest))
    return (rest, rest_mood) if rest_mood > 0.0 else (own, mood)


# The user blaming themself ("I made a mistake and booked the wrong date", "it's my own
# fault for not checking"): the clause's bad words are not aimed at the service.
_SELF_BLAME = re.compile(
    r"\b(?:(?:my|our) (?:own )?(?:fault|mistake|error)|(?:i|we) (?:made|make) (?:a|an) "
    r"(?:\w+ )?(?:mistake|error)|(?:i|we) (?:messed|mixed) (?:\w+ )?up)\b",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"([.!?,;])")


def _without_self_blame(text: str) -> str:
    """``text`` with the clauses in which the user blames themself blanked."""
    if not _SELF_BLAME.search(text):
        return text
    return "".join(" " if _SELF_BLAME.search(c) else c for c in _CLAUSE_END.split(text))


# A feeling named about what happened ("I'm really frustrated about the delayed flight", "upset
# that the concert was postponed") tells the situation, once: it aims at nothing the service
# did. Said of the service or the one answering ("upset with how you've handled this", "not
# happy with the service I received": the first words of what it is about), it is a
# complaint and stays.
_FELT_ABOUT = re.compile(
    r"\b(?:disappointed|upset|frustrated|annoyed|unhappy)(?:\W+\w+)?\W+"
    r"(?:about|over|by|that|because|since|with)\b((?:\W+[\w']+){1,3})",
    re.IGNORECASE,
)
_AT_SERVICE = re.compile(
    r"\b(?:you|your|yours|y'all|how|way|service|support|agents?|staff|answers?|response|reply|"
    r"handled|handling|treat(?:ed|ment)?|help(?:ed)?|told|keep|again|still|always|never)\b",
    re.IGNORECASE,
)


# The harm a redress is asked for ("compensation for the inconvenience", "a refund for my
# missed connection") names what happened; "a refund for this garbage" judges it and stays.
_REDRESSED_HARM = re.compile(
    r"(\b(?:refund|refunded|compensated|compensation|reimbursed|reimbursement|voucher|"
    r"certificate|credit|gesture)\b)[^.!?]{0,20}?\bfor (?:the|my|our|any|all the)\b[^.!?,]*",
    re.IGNORECASE,
)


# A feeling told with no object ("I'm really stressed.", "I'm just so frazzled right now."):
# the caller's state, aimed at no one. Growing as it is told ("I'm getting frustrated") is
# heat in the making and stays.
_FEELING_ONLY = re.compile(
    r"^\W*(?:(?:ugh|oh|look|honestly|okay|ok|sorry|and|but|so|well)\W+){0,3}"
    r"(?:i(?:'m| am)|i feel|i've been|i have been)(?: (?:just|really|so|very|quite|pretty|"
    r"already|honestly|a bit|a little|extremely|incredibly|totally|completely))*"
    r" (?:stressed|frustrated|upset|anxious|worried|scared|panicked|panicking|frazzled|"
    r"overwhelmed|exhausted|shaken|distressed|desperate|nervous|emotional)"
    r"(?: (?:out|right now|at the moment|today|enough(?: as it is)?|as it is))*\W*$",
    re.IGNORECASE,
)


def _without_situation(text: str) -> str:
    """``text`` without what tells the situation: the sentences that name a feeling about
    it (``_FELT_ABOUT``) or with no object (``_FEELING_ONLY``), and the harm a redress is
    asked for (``_REDRESSED_HARM``)."""
    text = "".join(
        " "
        if ((m := _FELT_ABOUT.search(p)) and not _AT_SERVICE.search(m.group(1)))
        or _FEELING_ONLY.search(p.strip())
        else p
        for p in _SENTENCE_END.split(text)
    )
    return _REDRESSED_HARM.sub(r"\1 ", text)


def _echoes(quote: str, spoken_words: set[str]) -> bool:
    """A quoted span the assistant said, word for word or in its own content words."""
    words = set(content_tokens(tokens(quote)))
    return len(words) >= 2 and len(words & spoken_words) >= 2 * len(words) / 3


# What a service says to soothe ("we appreciate your patience", "sorry for the
# inconvenience"): said back by the user, it is mockery.
_SOOTHING = any_of(
    # "Be patient", the state said of someone, not the patient a clinic serves ("your patient
    # ID", "this patient", "a new patient").
    r"\bpatience\b|\b(?:be|been|being|am|is|are|was|were|stay|remain|so|very|more|too|really) patient\b|"
    r"\bunderstanding\b|\bappreciat\w*|\binconvenien\w*|\bvalued\b|\bbear with\b",
    # The same soothing words in the other languages ("le pedimos paciencia", "Verständnis").
    r"\bpaciencia\b|\bcomprensi[oó]n\b|\bmolestias\b|\bcompr[ée]hension\b|"
    r"\bg[eê]ne occasionn|\bgeduld\b|\bverst[äa]ndnis\b|\bunannehmlichkeit|\bpazienza\b|"
    r"\bcomprensione\b|\bdisagio\b|\bpaci[eê]ncia\b|\bcompreens[ãa]o\b|\btranstorno\b|"
    r"\bbegrip\b|\bongemak\b"
)
_SOOTHING_STEM = 6
_INTENSITY = {"impatience": _W_IMPATIENT}
# A reply sentence that offers options to pick from: a question naming them, or a request to
# choose one; an option is a few words of it.
_OFFERS_CHOICE = any_of(
    r"\?$|\bone of\b|\b(?:choose|select|pick)\b|\b(?:,|\bor) (?:other|another|something else)\b"
)
_CHOICE_WORDS = 3
# A quote the user gives as a value they set ("I'll use the title 'Add contributing guide'"):
# their input, not the reply mocked ("You call this 'support'?" still mocks).
_SETS_VALUE = re.compile(
    r"\b(?:use|name|title|label|set|keep|go with|choose|pick|type|enter|reason|note|mark(?:ed)? as)\b"
    r"[^.?!\"\u201c\u201d]{0,30}\W*$",
    re.IGNORECASE,
)
_ECHO = re.compile(r"(?:^|[.!?]\s+)([^.!?]{4,80})\?")
_YOU_QUOTED = re.compile(r"\byou\s+['\"\u2018\u201c]([a-z]{3,})['\"\u2019\u201d]", re.IGNORECASE)
_ECHO_WORDS = 3
# A turn longer than this is pasted material (a log, a letter); its tone is in what the
# user wrote around it, near the start. Also bounds the time per turn.
_MAX_CHARS = 4000


@dataclass(frozen=True)
class _Context:
    """What a turn is read against (see ``turn_tone``)."""

    known: frozenset[str]
    known_caps: frozenset[str]
    said: str
    after_repeat: bool
    own_people: bool
    glad_before: bool
    after_question: bool = False
    stems: frozenset[str] = frozenset()


def _says_anew(text: str, context: _Context) -> bool:
    """The user says how they feel (``DISPLEASED``) in a feeling word the conversation had
    not used: the same feeling said again, by the user or echoed back by the assistant ("I
    understand your frustration"), is no new heat."""
    lex = lexicon()
    for m in DISPLEASED.finditer(text):
        felt = [w for w in tokens(m.group(0)) if lex.get(w, 0.0) < 0]
        if not felt or any(not _known(w, context.known, context.stems) for w in felt):
            return True
    return False


def turn_tone(
    text: str,
    known: frozenset[str],
    known_caps: frozenset[str],
    said: str,
    *,
    after_repeat: bool = False,
    own_people: bool = False,
    glad_before: bool = False,
    after_question: bool = False,
) -> Tone:
    """How heated ``text`` is, ignoring words in ``known`` (the problem as already stated)
    and capitalised words in ``known_caps`` (names and codes the conversation uses);
    ``said`` is what the assistant has said so far; ``after_repeat``: the reply just before
    said an earlier reply again, and praise or thanks for that is sarcasm; ``own_people``:
    the user has named someone in their own life, so "he" / "she" may be that person;
    ``glad_before``: the user's turn before read glad; ``after_question``: the reply just
    before asked the user something."""
    context = _Context(
        known,
        known_caps,
        said,
        after_repeat,
        own_people,
        glad_before,
        after_question,
        _stems(known),
    )
    tone = _read(text, context)
    # A plain request to cancel or to be refunded ("I want to cancel the reservation and
    # get a full refund") is what a customer came to do: when the rest of the turn shows
    # nothing, the request adds no heat.
    source, seen = plain(text[:_MAX_CHARS]), tone
    if "asks for a human" in tone.cues:
        # A polite plea for a person, with nothing else heated once it is set aside, or
        # with only a plain request beside it ("I really need to cancel and get a refund.
        # Is there any way you can make an exception or escalate this?").
        # Whatever else the turn holds is read as it would be without the plea.
        source = _pleas(source)
        seen = _read(source, context)
        if "asks for a human" not in seen.cues:
            tone = seen
    if not seen.cues or not set(seen.cues) <= _BUSINESS:
        return tone
    parts = _SENTENCE_END.split(source)
    asked = _requests(source)
    left = " ".join(p for p in parts if p not in asked)
    if not asked or _PRAISE.search(_WISHED.sub(" ", left)):  # praise beside a demand is sarcasm
        return tone
    rest = _read(left, context)
    return tone if rest.cues else rest


_PARAGRAPH = re.compile(r"\n\s*\n")
# A harsh word said to be meant well ("That's insane, in a good way", "scary in the best
# way"): praise, not blame.
_GOOD_WAY = re.compile(
    r"\b[a-z]+\W{0,3}\s*in (?:a|the) (?:good|great|best|positive|nice)(?: possible)? (?:way|sense)\b",
    re.IGNORECASE,
)


def _thanked_beside(text: str, context: _Context) -> bool:
    """The thanks or praise shares a paragraph with the complaint. A long turn that opens
    "Thanks for the thorough update." and then lists its requests paragraph by paragraph
    thanks; its sarcasm would sit in the paragraph that thanks."""
    paragraphs = [p for p in _PARAGRAPH.split(text) if p.strip()]
    if len(paragraphs) < 2:
        return True
    return any(
        "sarcasm" in _read(p, context).cues
        for p in paragraphs
        if _THANKS.search(p) or _PRAISE.search(p)
    )


def _read(text: str, context: _Context) -> Tone:
    """One turn's heat and cues, as ``turn_tone`` describes."""
    known, known_caps, said = context.known, context.known_caps, context.said
    after_repeat, own_people = context.after_repeat, context.own_people
    glad_before = context.glad_before
    cues: list[str] = []
    heat = 0.0
    mocked = False
    text = plain(text[:_MAX_CHARS])
    spoken = " ".join(said.lower().split())
    spoken_words = set(tokens(said))
    # What the assistant itself put in quotes is a label it offered ("use 'no longer needed'
    # as the reason"): quoted back, it is chosen, not mocked.
    labels = {m.group(1).lower() for m in QUOTED.finditer(plain(said))}
    # So is an option it listed for the user to pick ("Is the reason illness, a schedule
    # change or other reasons?", "Please confirm one of: ...").
    choices = " ".join(
        p.lower() for p in _SENTENCE_END.split(plain(said)) if _OFFERS_CHOICE.search(p.strip())
    )
    for m in QUOTED.finditer(text):
        mocked |= (
            len(m.group(1)) >= 4
            and not _NAME.fullmatch(m.group(1))
            and m.group(1).lower() not in labels
            and not (len(m.group(1).split()) <= _CHOICE_WORDS and m.group(1).lower() in choices)
            and not _SETS_VALUE.search(text[: m.start()])
            # One word or a value ("internet", "http://mms.example/wap") is a reading.
            and len(m.group(1).split()) >= 2
            and (m.group(1).lower() in spoken or _echoes(m.group(1), spoken_words))
        )
    # Or one word of the reply quoted as what the assistant did ("You 'noted' it.", "So you
    # 'escalated' it"): its own verb thrown back in doubt.
    mocked |= any(
        m.group(1).lower() in spoken_words and m.group(1).lower() not in labels
        for m in _YOU_QUOTED.finditer(text)
    )
    # Or echoed as a question without quotes: "Try again later? My kids are freezing."
    for m in _ECHO.finditer(text):
        mocked |= len(m.group(1).split()) >= _ECHO_WORDS and m.group(1).lower() in spoken
    # Or the reply's soothing word thrown back ("We appreciate your patience." -> "Oh I'm
    # being very patient."); thanks ("I appreciate it") is not that.
    soothed = {m.group(0).lower()[:_SOOTHING_STEM] for m in _SOOTHING.finditer(said)}
    mocked |= any(
        m.group(0).lower()[:_SOOTHING_STEM] in soothed
        for part in _SENTENCE_PART.finditer(text)
        if not _THANKS.search(part.group(0))
        for m in _SOOTHING.finditer(part.group(0))
    )
    # Quoted words are not the user's own tone, nor a screen read out line by line ("-
    # Signal Strength: Poor"); nor is anger at someone else.
    own = _intensity_for(
        _without_others(
            _without_situation(
                _without_self_blame(
                    _READING.sub(" ", _GOOD_WAY.sub(" good ", QUOTED.sub(" ", text)))
                )
            ),
            own_people=own_people,
            said=said,
        )
    )
    # Right after a reply said again, glad words are sarcasm, and their intensity with them.
    own = own if after_repeat else _for_good(own, glad_before)
    own, mood = _present(own, valence(_MOODLESS.sub(" ", own)))
    for name, found, weight in (
        (
            "repeating",
            lambda t: REPEATING.search(t) or (mood < _EXCITED and _COUNTED.search(t)),
            _W_REPEAT,
        ),
        ("blame", _BLAME.search, _W_BLAME),
        ("asks for a human", lambda t: _ESCALATE.search(_unoffered(t, said)), _W_ESCALATE),
        ("threatens to leave", _leaves, _W_LEAVE),
        ("gives up", _GIVE_UP.search, _W_GIVE_UP),
        ("impatience", _IMPATIENT.search, _W_IMPATIENT),
        ("what they put in", _INVESTED.search, _W_INVESTED),
        ("accusing question", _accusing_question, _W_RHETORICAL),
        ("nobody helps", _NOBODY.search, _W_NOBODY),
        ("says so", lambda t: _says_anew(t, context), _W_DISPLEASED),
        ("asks for redress", _REDRESS.search, _W_REDRESS),
        ("thanks for a repeat", _thanks_for_repeat, _W_REPEAT),
        ("praise for more of it", _more_of_it, _W_MOCK),
        ("praise as always", _praised_as_ever, _W_MOCK),
        ("praise for the reply's terms", lambda t: _echoed_praise(t, spoken_words), _W_MOCK),
        (
            "praise for a repeated reply",
            lambda t: after_repeat and (_THANKS.search(t) or _PRAISE.search(t)),
            _W_REPEAT,
        ),
    ):
        if found(own):
            heat += weight
            cues.append(name)
    lex = lexicon()
    accepted = bool(_ACCEPTS_IT.search(own))
    # In a turn that takes the answer, a word on "that" or "it" ("Oh, that's a bummer. I'll
    # keep the order then") judges the news, whatever the word; the service is blamed in
    # _BLAME's words or said to its face ("you're ..."). Answering the reply's question, a
    # feeling about the news ("That's really disappointing to hear") is told, not blamed;
    # a verdict on the rule ("I think it's unfair") still blames.
    if "blame" not in cues and any(
        lex.get(m.group(1).lower(), 0.0) <= _JUDGED_VALENCE
        and m.group(1).lower() not in known
        and not (
            (accepted or context.after_question) and m.group(1).lower() in _FEELING
            or accepted and _ON_NEWS.match(m.group(0))
            or _SENSED.match(m.group(0)) and m.group(1).lower() in _SENSATION
        )
        for m in _JUDGED.finditer(own)
        if not _asked_whether(own, m.start())
    ):
        heat += _W_BLAME
        cues.append("blame")
    if mocked:
        heat += _W_MOCK
        cues.append("quotes the assistant back")
    elif _SCARE.search(text) and not _ASKS_MEANING.search(text):
        heat += _W_MOCK
        cues.append("scare quotes")
    # Asked about it, with no complaint's shape, the user tells their state ("the pain is a
    # 7, I'm scared"): information. Told to a reply that asked nothing ("I'm in pain here"),
    # it presses.
    shaped = any(c in _FAMILIES and c not in _INTENSITY for c in cues)
    told = context.after_question and not shaped
    # A feeling about the news taken in its stride ("That's frustrating. In that case, could
    # you cancel it instead?") is no negative word either.
    felt = (known | _FEELING if accepted else known) | _MISFORTUNE
    felt |= {m.group(1).lower() for m in _BEFELL.finditer(own)}
    neg, words = _new_negative(_without_told(own) if told else own, felt, context.stems)
    # Praise or thanks inside a complaint is not praise: some shape of anger besides "!!",
    # or clearly negative words, around it.
    # "OMG", "seriously" are intensity too: in a glad turn they are excitement.
    excited = mood >= _EXCITED and not (
        neg >= _SARCASM_NEGATIVE or any(c in _FAMILIES and c not in _INTENSITY for c in cues)
    )
    for cue, weight in ((c, w) for c, w in _INTENSITY.items() if excited and c in cues):
        cues.remove(cue)
        heat -= weight
    # Impatience alone is intensity, not a complaint's shape: "ugh ok. thanks" thanks.
    complaint = neg >= _SARCASM_NEGATIVE or any(
        c in _FAMILIES and c not in _INTENSITY for c in cues
    )
    shouted = 0 if excited else _shouted(own, known_caps)
    if shouted:
        heat += _W_SHOUT * min(2.0, 0.5 + 0.5 * shouted)
        cues.append("capitals")
    if not excited and re.search(r"[!?]\s*!|!\s*[!?]|\?{2,}", own):
        heat += _W_BANG
        cues.append('"!!"')
    if words:
        heat += min(_MAX_WORDS, _W_WORD * neg)
        cues.append("negative words: " + ", ".join(words[:3]))
    thanks = bool(_THANKS.search(own))
    polite = bool(_POLITE.search(own))
    # Thanks beside asking for a person ("Thanks for checking. Could I speak with a
    # supervisor, please?") is manners: sarcasm needs a complaint besides the asking.
    griped = neg >= _SARCASM_NEGATIVE or any(
        c in _FAMILIES and c not in _INTENSITY and c not in _ASKING for c in cues
    )
    # Thanks for something done ("thank you for checking", "thanks for the update"), not
    # right after a reply said again: sincere, whatever feeling it stands beside.
    sincere = bool(_THANKED_FOR.search(own)) and not after_repeat
    # Gratitude wished for, not given ("I'd really appreciate any help", "I'd be happy with a
    # voucher", "Option 1 works fine for me"): the manners of a request, not sarcasm.
    unwished = _WISHED.sub(" ", own)
    grateful = bool(_THANKS.search(unwished) or _PRAISE.search(unwished))
    if grateful and griped and not sincere and _thanked_beside(own, context):
        cues.append("sarcasm")
        heat += _W_SARCASM
    elif thanks:
        heat += _THANKS_PULL
    if polite and not complaint:
        heat += _POLITE_PULL
    return Tone(round(heat, 4), tuple(cues), thanks and not complaint, round(mood, 4))
