"""Claims in a player's own words: the one reader of what a speech claims, for the LLM seats'
memory (prompts/recall.py) and the heuristic seats (players/heuristic.py), and the phrases
the heuristic seats speak, which the same reader reads back.

A speech is read for the good roles its speaker claims ("I'm the real seer", "trust me, I'm
the witch"), the check results it reports ("my check on P05 came back wolf", "checked P03:
good"; in a speech that claims the Seer also bare results: "P04 is a wolf", "P03 is clean"),
the seats it accuses ("I suspect P07", "P07 is lying", "vote P07 out") and whether its
speaker defends itself ("I'm not a wolf", "trust me"). Seats are named by seat id in any case
("p04") or by display name, matched as `rules/discussion.py` `mentions` matches them: whole
words, the longest name first, in the case the table shows them (a name may be a word too).
A result or an accusation hedged in its own clause ("I don't think P04 is a wolf", "if P05
is lying") is not said.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from autowerewolf.rules.rng import pick
from autowerewolf.rules.roles import ROLE_NAMES, Camp, camp_of

# Every good role of the registry, spoken with spaces where its name has underscores.
_GOOD_ROLES = "|".join(
    name.replace("_", "[ _]") for name in ROLE_NAMES if camp_of(name) is Camp.GOOD
)
_AM = r"(?:\s(?:really|actually|truly|honestly|still))?(?:\sam|['’]m|\swas)"
_CLAIMING = r"(?:['’]m|\sam)?\sclaim(?:ing)?(?:\sto\sbe)?"
# Words between "I am" and the role: "I'm the real seer", "I am actually the witch", "I'm just
# a simple villager".
_FILLER = (
    r"(?:\s(?:actually|really|truly|indeed|also|just|the|a|an|your|real|true|actual|genuine|"
    r"only|simple|plain|humble))*"
)
# A good role claimed, its name the one group: "I am the Seer", "I'm a villager", "I'm the
# real seer", "I really am the witch", "I claim guard", "As the Seer, I ...".
CLAIM = re.compile(
    rf"(?:\bI(?:{_AM}|{_CLAIMING}){_FILLER}\s|\bas\s(?:the|your)\s(?=(?:"
    rf"{_GOOD_ROLES}),\s*I\b))({_GOOD_ROLES})\b(?!['’])",
    re.I,
)
_SEAT = r"(P\d{2})"
# "not a wolf" before "wolf": the good words are tried first at each place.
_GOOD_WORDS = (
    r"not\s(?:a\s|an\s)?(?:were)?wolf|no\s(?:were)?wolf|good|clean|innocent|"
    r"(?:a\s)?villager|town|safe"
)
_RESULT = (
    rf"(?:an?\s|as\s(?:an?\s)?)?(?:(?P<good>{_GOOD_WORDS})|(?P<wolf>(?:were)?wol(?:f|ves)|evil))\b"
)
# A check reported as the speaker's own: "my check found P03 a wolf", "I checked P05: a
# werewolf", "checked P03: good", "my check on P05 came back wolf". "His check found P03 a
# wolf" repeats another's report, so it is not one.
_REPORT = re.compile(
    r"(?:\bmy\s(?:check|result|reading)s?(?:\s(?:found|on|of|for|says|showed|shows))?"
    r"|\bI(?:\shave|['’]ve|\sjust|\salso)?\s(?:checked|inspected|investigated|verified)"
    r"|(?:^|[.!?;]\s*)(?:checked|inspected|investigated|verified))"
    rf"\s+{_SEAT}(?:\s+(?:last\snight|tonight|on\snight\s\d+))?(?:\s*[:,=\-–—]\s*|\s+)"
    r"(?:(?:and\s|so\s)?(?:he|she|they|it)(?:['’]s|\sis|\swas|\sare)?\s+)?"
    r"(?:(?:is|was|came\sback|comes\sback|turned\sout|turns\sout|showed|shows)"
    rf"(?:\sto\sbe)?\s+)?{_RESULT}",
    re.I,
)
# A result said outright: "P04 is a wolf", "P03 is clean", "P05: wolf". Only a Seer claimant
# says it as her check; from anyone else a wolf named is an accusation.
_VERDICT = re.compile(
    rf"\b{_SEAT}(?:\s*[:=\-–—]\s*|['’]s\s|\s(?:is|was|came\sback|comes\sback|turned\sout|"
    r"checks\sout\sas)\s(?:(?:definitely|clearly|surely|certainly|100%)\s)?)"
    rf"{_RESULT}",
    re.I,
)
_ACCUSATIONS = (
    rf"\bI(?:\s(?:really|strongly|still|also|now))?\s(?:suspect|distrust|doubt)\s{_SEAT}",
    rf"\b(?:don['’]t|do\snot|never|can['’]t|cannot)\s(?:trust|believe)\s{_SEAT}",
    rf"\bsuspicious\sof\s{_SEAT}",
    rf"\b{_SEAT}(?:['’]s|\sis|\swas|\shas\sbeen|\sseems|\slooks)(?:\s(?:clearly|obviously|"
    r"definitely|so|very|really|pretty|totally|probably))?\s(?:lying|a\sliar|fake|a\sfake|"
    r"faking|bluffing|suspicious|sus|sketchy|shady|fishy)\b",
    rf"\b{_SEAT}\s(?:lied|lies)\b",
    # "voted to exile P03" reports a ballot: not an accusation.
    r"(?<!voted\sto\s)(?<!voting\sto\s)\b(?:vote|voting|lynch|exile|eliminate|banish)"
    rf"(?:\s(?:out|for|against))?\s{_SEAT}",
    rf"\b{_SEAT}\s(?:should|must|has\sto|needs\sto)\s(?:go|be\s(?:voted\sout|exiled|lynched))",
)
_ACCUSATION = re.compile("|".join(f"(?:{pattern})" for pattern in _ACCUSATIONS), re.I)
DEFENCE = re.compile(
    r"\btrust\sme\b|\bbelieve\sme\b|\bI\sswear\b|\bI(?:['’]m|\sam)\s(?:not|no)(?:\sa|\san|"
    r"\sthe|\sone\sof\sthe)?\s(?:were)?wol(?:f|ves)\b|\bI(?:['’]m|\sam)\s(?:innocent|"
    r"not\slying|telling\sthe\struth|on\sthe\s(?:village|good|town)(?:['’]s)?\s(?:side|team))\b",
    re.I,
)
# A clause that hedges what follows in it: "I don't think", "if", "not sure".
_HEDGE = re.compile(r"\b(?:not|never|no|if|whether|unless)\b|n['’]t\b", re.I)
_CLAUSE = re.compile(r"[.!?;:,]|\bbut\b", re.I)


@dataclass(frozen=True)
class Reading:
    """What one speech says, as its speaker means it; seats are seat ids, the speaker's own
    seat left out of its results and accusations."""

    roles: tuple[str, ...]  # good roles claimed, as the registry names them, in order
    claims_seer: bool  # by name, or by reporting a check
    checks: tuple[tuple[str, Camp], ...]  # results given as its own checks, each seat once
    accused: tuple[str, ...]  # accused, or called wolves by a non-claimant, in text order
    defends: bool


def with_seat_ids(text: str, names: Mapping[str, str]) -> str:
    """`text` with every display name of `names` (seat -> name) and every seat id in any case
    written as its seat id."""
    by_name = {name: seat for seat, name in names.items() if name}
    spelled = sorted(by_name, key=len, reverse=True)
    if spelled:
        pattern = r"\b(" + "|".join(re.escape(name) for name in spelled) + r")\b"
        text = re.sub(pattern, lambda m: by_name[m.group(1)], text)
    return re.sub(r"\b[pP](\d{2})\b", r"P\1", text)


def _said(match: re.Match[str], text: str) -> bool:
    """Whether a match is said, not hedged by its own clause before it."""
    start = match.start()
    clause = max((m.end() for m in _CLAUSE.finditer(text, 0, start)), default=0)
    return _HEDGE.search(text, clause, start) is None


def _results(pattern: re.Pattern[str], text: str, speaker: str) -> list[tuple[int, str, Camp]]:
    """Each said result of `pattern`: where it is, its seat and its camp."""
    return [
        (m.start(), m.group(1), Camp.GOOD if m.group("good") else Camp.WOLF)
        for m in pattern.finditer(text)
        if m.group(1) != speaker and _said(m, text)
    ]


def read_speech(text: str, speaker: str, names: Mapping[str, str] | None = None) -> Reading:
    """What `speaker`'s speech `text` claims, seats named by id or by `names` (seat -> name)."""
    return _read(text, speaker, tuple(sorted((names or {}).items())))


# Every decision of a heuristic seat and every prompt of an LLM seat reads the whole day's
# speeches again: reading each speech once took 300 heuristic 12-A games from 206 s to 43 s.
@lru_cache(maxsize=4096)
def _read(text: str, speaker: str, names: tuple[tuple[str, str], ...]) -> Reading:
    text = with_seat_ids(text, dict(names))
    roles = tuple(dict.fromkeys(m.group(1).lower().replace(" ", "_") for m in CLAIM.finditer(text)))
    reports, verdicts = _results(_REPORT, text, speaker), _results(_VERDICT, text, speaker)
    claims_seer = "seer" in roles or bool(reports)
    checks: dict[str, Camp] = {}
    for _, seat, camp in (*reports, *verdicts) if claims_seer else reports:
        checks.setdefault(seat, camp)
    named = [
        (m.start(), seat)
        for m in _ACCUSATION.finditer(text)
        if _said(m, text) and (seat := next(g for g in m.groups() if g)) != speaker
    ]
    if not claims_seer:  # a wolf named outright is an accusation
        named += [(at, seat) for at, seat, camp in verdicts if camp is Camp.WOLF]
    return Reading(
        roles=roles,
        claims_seer=claims_seer,
        checks=tuple(checks.items()),
        accused=tuple(dict.fromkeys(seat for _, seat in sorted(named))),
        defends=DEFENCE.search(text) is not None,
    )


# The heuristic seats' words: each kind of sentence in a few phrasings, one drawn per speech
# from the request's seed and key (`say`), so a replayed game says the same. Each phrasing
# reads back as what it means: the Seer's claim says "I am the seer", her results "P04 is a
# wolf" or "P03 is good"; an accusation is one the reader hears.
PHRASES: dict[str, tuple[str, ...]] = {
    "seer_claim": (
        "I am the seer.",
        "Listen, everyone: I am the seer.",
        "Time to come out: I am the seer.",
        "I am the seer, and I have checks to share.",
    ),
    "seer_wolf": (
        "{seat} is a wolf.",
        "{seat} is a wolf, I checked them.",
        "{seat} is a wolf; I saw it last night.",
    ),
    "seer_good": ("{seat} is good.", "{seat} is good, I checked them.", "{seat} is clean."),
    "seer_vote": ("Vote {seat} out.", "Vote {seat} out today.", "We must vote {seat} out."),
    "believe_seer": (
        "I believe {claimant}: {seat} is a wolf.",
        "{claimant}'s check convinces me; {seat} is a wolf.",
        "I am with {claimant} on this. {seat} is a wolf, so vote {seat} out.",
    ),
    "liar": (
        "{seat} is lying about their role; I know it.",
        "Do not trust {seat}: that claim is false.",
        "{seat} is lying, and I can tell you how I know.",
    ),
    "trust": ("I trust {seat}.", "{seat} looks honest to me.", "{seat} has my trust for now."),
    "suspect": (
        "I suspect {seat}: they went after {target}.",
        "{seat} is suspicious; why go after {target}?",
        "I don't trust {seat} after what they said about {target}.",
    ),
    "doubt_claim": (
        "I suspect {seat}: that seer claim came too easily.",
        "{seat} is bluffing; a real seer would not rush like that.",
        "I doubt {seat}. Anyone can claim the seer.",
    ),
    "wolf_lean": (
        "I suspect {seat}, but it is early.",
        "{seat} is suspicious to me so far.",
        "I'd vote {seat} out today.",
    ),
    "defend": (
        "I'm not a wolf, {seat}; you have the wrong seat.",
        "{seat}, trust me: I am not a wolf.",
        "I am not a wolf. {seat} is looking in the wrong place.",
    ),
    "no_read": (
        "I have no solid information yet; I am watching the votes.",
        "No firm read yet. I will follow the votes closely.",
        "Nothing solid so far; I want to hear more before I vote.",
        "Too early for me to call anyone. I'm listening.",
    ),
    "whisper_seer": (
        "{seat} claims the seer: take them tonight.",
        "Kill {seat} tonight, before their checks find us.",
        "{seat} says they are the seer. They go first.",
    ),
    "whisper_target": (
        "Let's take {seat} tonight.",
        "{seat} tonight; one fewer voice against us.",
        "I say {seat}. Then we keep quiet tomorrow.",
    ),
    "no_read_last": (
        "I leave without a firm read; watch the votes.",
        "I have nothing solid to leave you. Listen closely to the others.",
        "No read from me, sadly. Follow the votes.",
    ),
}


def say(kind: str, seed: int, key: str, **slots: str) -> str:
    """One sentence of `kind` (a key of PHRASES), its phrasing drawn from (seed, key)."""
    return pick(seed, f"{key}:say:{kind}", PHRASES[kind]).format(**slots)
