"""Structured speeches: a small model's speech as a few acts (claim a role, report a check
or a save, accuse, defend, vouch for, follow the sheriff, pass), each with a target chosen
among the legal seats and a ground among the public facts (prompts/grounds.py), rendered
here into the sentence the table hears; a structured speaker's wolf whisper is its target
and a ground. In the spirit of structured discussion tags: a 0.5B model that fills a free
speech box copies the prompt or apologises; one that picks acts plays (docs/agents.md).

The acts are recorded with the speech (`data["acts"]`), so the metrics can read them, and
a seat's own act that contradicts what it knows (a Seer reporting a check she never made)
is out of character (prompts/second_look.py).
"""

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from autowerewolf.prompts.grounds import NO_GROUND, named
from autowerewolf.prompts.recall import CLAIM
from autowerewolf.rules.roles import Camp, Role, camp_of, on_wolf_side

# A speech is what the embedded model generates most of, one seat after another: each act is
# one short phrase ("accuse P03") and its ground. Acts as objects of five fields
# (act, seat, role, result, reason) with three of them "none" most of the time took 110-260
# generated tokens for three acts, and still about 140 for two phrases; and the embedded
# model's second act mostly repeated its first ("I saved P01: X. I saved P01: X.") or took
# it back ("I suspect P02 ... I trust P02"). A check or a save says the role it implies.
MAX_ACTS = 1
# The speech's private reasoning: short, as each act has its ground.
ACTS_REASONING_CHARS = 60
RESULTS = ("wolf", "good")
_ABOUT_A_SEAT = ("accuse", "vouch", "check", "saved")
_ALONE = ("defend", "follow_sheriff", "pass")  # pass last
_ACT_HELP = (
    "Each act says one thing: 'claim ROLE' (your role is ROLE), 'check SEAT wolf|good' (you "
    "checked SEAT last night and found it), 'saved SEAT' (you saved SEAT last night), "
    "'accuse SEAT' (you suspect SEAT), 'vouch SEAT' (you trust SEAT), 'defend' (you are not "
    "a wolf), 'follow_sheriff' (you vote with the sheriff)"
)


def act_help(offered: Sequence[str], grounds: Sequence[str]) -> str:
    """What the acts and their grounds are, as far as they are `offered`."""
    passing = ", 'pass' (nothing to add)" if "pass" in offered else ""
    unseen = f", or '{NO_GROUND}'" if NO_GROUND in grounds else ""
    return f"{_ACT_HELP}{passing}; `because`: the fact you saw that it rests on{unseen}."


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def ground_field(grounds: tuple[str, ...], description: str) -> tuple[Any, Any]:
    """A ground among the `grounds` offered (prompts/grounds.py)."""
    return (Literal[grounds], Field(description=description))


def phrases(
    seat: str,
    role: Role,
    seats: Sequence[str],
    roles: Sequence[str],
    checks: Mapping[str, str] | None = None,
    saved: Sequence[str] = (),
    grounds: Sequence[str] = (NO_GROUND,),
) -> tuple[str, ...]:
    """Every act `seat` (holding `role`) may say about the living `seats`, as its phrase.
    A good seat is offered only what it knows to be true: its own role to claim, the Seer her
    own results, the Witch her own cures. The embedded model's villagers "saved" seats and
    its Seers reported checks they never made when every phrase was on offer; a good seat
    has no reason to lie, so the menu, not a second look, keeps its speech in character. A
    wolf may bluff any good role, any check and any save.
    With `grounds` to speak to (prompts/grounds.py), a seat may not pass: offered a ground
    and then every act, the embedded model passed in 83-94% of good seats' speeches over
    three pilot games (seed 29), against 58% when a free reason came first (ten games,
    docs/benchmarks.md)."""
    alone = _ALONE if tuple(grounds) == (NO_GROUND,) else _ALONE[:-1]
    others = [s for s in seats if s != seat]
    if camp_of(role) is Camp.GOOD:
        reports = tuple(f"check {s} {r}" for s, r in (checks or {}).items() if s in others)
        cures = tuple(f"saved {s}" for s in saved if s in others)
        claims: tuple[str, ...] = (role.value,)
    else:
        reports = tuple(f"check {s} {result}" for s in others for result in RESULTS)
        cures = tuple(f"saved {s}" for s in others)
        claims = tuple(r for r in roles if not on_wolf_side(r))
    return (
        *(f"accuse {s}" for s in others),
        *(f"vouch {s}" for s in others),
        *reports,
        *cures,
        *(f"claim {r}" for r in claims),
        *alone,
    )


@lru_cache(maxsize=256)
def acts_schema(offered: tuple[str, ...], grounds: tuple[str, ...]) -> type[BaseModel]:
    """One act: its ground among the `grounds`, then its phrase among the `offered` ones. The
    ground comes first so the phrase follows from it: asked the phrase first, the embedded
    model often passed and then wrote an accusation as its reason ("I have nothing to add:
    I suspect P01"). Replayed on 24 saved speeches, 14 passed and 6 accused with a free
    reason first, against 16-17 and 1-3 with the phrase first (docs/benchmarks.md)."""
    fields: dict[str, Any] = {
        "because": ground_field(grounds, "The fact it rests on."),
        "say": (Literal[offered], Field(description="The act.")),
    }
    return create_model("SpeechAct", __base__=_Strict, **fields)


def speech_field(offered: tuple[str, ...], grounds: tuple[str, ...]) -> tuple[Any, Any]:
    """The `acts` field of a speech answer: its act among the `offered` phrases, its ground
    among the `grounds` (a list of MAX_ACTS, so records keep one shape if a larger model is
    given more)."""
    act = acts_schema(offered, grounds)
    help_text = act_help(offered, grounds)
    return (
        list[act],  # type: ignore[valid-type]
        Field(min_length=1, max_length=MAX_ACTS, description=f"Your speech, as acts. {help_text}"),
    )


def spoken(said: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The acts of an answer (`{"because": ..., "say": "check P05 wolf"}`) as the records
    keep them: act, seat, role, result ("none" where it has none) and its ground (because).
    Acts of games before grounds kept a free `reason` instead."""
    acts = []
    for item in said:
        kind, *rest = str(item.get("say", "pass")).split()
        act = {"act": kind, "seat": "none", "role": "none", "result": "none"}
        if kind == "claim" and rest:
            act["role"] = rest[0]
        elif kind == "check" and len(rest) == 2:
            act["seat"], act["result"] = rest
        elif kind in _ABOUT_A_SEAT and rest:
            act["seat"] = rest[0]
        acts.append({**act, "because": str(item.get("because") or NO_GROUND)})
    return acts


def said(act: Mapping[str, str]) -> dict[str, str]:
    """A recorded act as the answer gave it (`spoken`'s inverse): its ground and phrase."""
    kind, seat, role, result = act["act"], act.get("seat"), act.get("role"), act.get("result")
    parts = {
        "claim": [kind, role],
        "check": [kind, seat, result],
        "saved": [kind, seat],
        "accuse": [kind, seat],
        "vouch": [kind, seat],
    }.get(kind, [kind])
    because = act.get("because", act.get("reason", NO_GROUND))
    return {"because": str(because), "say": " ".join(str(part) for part in parts)}


# A good seat calling itself a wolf: the embedded model's villager said "You are the
# villager and I am the werewolf" (1 of 312 good seats' texts in eleven games); a villager's
# last words "I was a werewolf, so I was not the one who was exposed" (the README's game).
_SELF_WOLF = re.compile(
    r"\bI(?: am|'m| was)(?: the| a| one of the)? (?:were)?wol(?:f|ves)\b(?!')", re.I
)
# A power claimed by its use, not its name: "P01 is the witch, and I saved P03" from a
# villager (6 of 343 good seats' texts in twelve games said a save no rule counted).
_POWER_USED = {
    Role.WITCH: re.compile(r"\bI saved\b|\bI(?: am|'m| was)? (?:the )?one who saved\b", re.I),
    Role.SEER: re.compile(r"\bmy check (?:found|on|of)\b|\bI checked P\d{2}\b", re.I),
}
# A Guard's protection is a save too.
_MAY_SAY_IT = {Role.WITCH: (Role.WITCH, Role.GUARD), Role.SEER: (Role.SEER,)}


def claims_another_role(text: str, role: Role) -> bool:
    """Whether a good seat's words claim a role it does not hold: a power role by name ("I
    am the witch" from a villager) or by its use ("I saved P03", "my check found P05"), or a
    wolf's. The embedded model's structured speeches did so in their free reasons, copying
    another seat's claim. A Seer who says she is a villager hides, which is play."""
    if camp_of(role) is not Camp.GOOD:
        return False
    claimed = claimed_roles(text) - {role.value}
    used = any(
        pattern.search(text) and role not in _MAY_SAY_IT[power]
        for power, pattern in _POWER_USED.items()
    )
    return bool(claimed) or used or _SELF_WOLF.search(text) is not None


# "I am on the wolf side, and I want to kill nobody": a wolf's election speech after the
# reasons that said "I am the werewolf" went unsaid (seed 34, docs/benchmarks.md).
_WOLF_SIDE = re.compile(
    r"\bI(?: am|'m) (?:on|in|with|one of) (?:the |our )?(?:were)?wol(?:f|ves)'?s? "
    r"(?:side|team|camp|pack)\b",
    re.I,
)


# A wolf naming the pack ("The werewolves are P04, P07, P08, P11, seat P08"): the
# transcript's line said aloud, in 5-17 of the wolves' 173-181 speeches of each of four sets
# of ten games (seeds 29-38, docs/benchmarks.md). A good seat naming wolves accuses; a wolf
# knows them.
_PACK = re.compile(r"\bthe (?:were)?wol(?:f|ves) (?:are|is) P\d{2}\b", re.I)


def outs_itself(text: str, role: Role) -> bool:
    """Whether a wolf's words say it is a wolf ("I am the werewolf, and I saved P01") or
    recite the pack ("The werewolves are P04, P07, P08, P11"). Said
    to the table, no wolf would: the embedded model wrote its own role into an act's reason,
    its reasoning said aloud, in 22 of the 165 speeches of its wolves in ten games (seeds
    29-38, docs/benchmarks.md). To its teammates, in a whisper, it is harmless."""
    return camp_of(role) is Camp.WOLF and any(
        pattern.search(text) is not None for pattern in (_SELF_WOLF, _WOLF_SIDE, _PACK)
    )


# The prompt's own notation in a player's words: a placeholder of the answer line ("SEAT is
# a werewolf"), braces ("{p08->P09}"), an arrow of the ledger's ballots, its day marks ("P02
# witch (day 1)", "(exiled day 1)"). No player says these: 3 of a random sample of 20 texts
# of ten embedded-model games (seeds 29-38), and 2 of another set of ten.
_NOTATION = re.compile(
    r"\b(?:SEAT|ROLE)\b|[{}]|->|\((?:exiled |shot |exploded |dueled |taken )?(?:day|night) \d+\)"
)


def copies_notation(text: str) -> bool:
    """Whether a text copies the prompt's notation (a placeholder, braces, an arrow)."""
    return _NOTATION.search(text) is not None


def claimed_roles(text: str) -> set[str]:
    """The roles a text's speaker claims ("I am the Witch"), a villager's left out: a power
    role hidden behind "I am a villager" is play."""
    return {m.group(1).lower() for m in CLAIM.finditer(text)} - {Role.VILLAGER.value}


def claims_two_roles(text: str) -> bool:
    """Whether a text claims two power roles ("I am the Witch, and I saved P11 ... because I
    am the Guard"): 6 of the embedded model's wolves' speeches in ten games."""
    return len(claimed_roles(text)) >= 2


# A claim ground's role ("P04 claimed to be the Seer"): a counterclaim rests on it.
_CLAIM_GROUND = re.compile(r"claimed to be (?:the|a) (\w+)$")


def backs(act: Mapping[str, str], speaker: str) -> bool:
    """Whether an act's ground bears on it, so it is said: a ground about the act's seat
    (not the speaker's own doing; never beside a save), about the speaker for a defence (or,
    from another, for a claim), or another's claim of the role claimed. A ground about
    someone else ("I suspect P05: P02 claimed to be the Seer") reads as nonsense, so the
    table hears the act alone, and the record keeps the ground."""
    ground = act.get("because") or NO_GROUND
    if ground == NO_GROUND:
        return False
    seats = named(ground)
    kind = act["act"]
    if kind == "saved":
        # A save reports the speaker's own night: no public fact backs it, and one beside it
        # read as nonsense ("I am the Witch, and I saved P02 from the wolves: P02 claimed to
        # be the Witch"), 16 of a random 60 of ten games' texts (seeds 29-38).
        return False
    if kind in _ABOUT_A_SEAT:
        # Its own doing is no evidence about another: "I suspect P06: I suspected P06."
        return act.get("seat") in seats and not ground.startswith(f"{speaker} ")
    counterclaim = _CLAIM_GROUND.search(ground)
    if kind == "claim" and counterclaim:
        # Another's claim of the same role; its own earlier claim would be a second role.
        return counterclaim.group(1).lower() == act.get("role") and speaker not in seats
    # Another's doing about the speaker ("P02 suspected P07"), or, in a defence, its own.
    own = ground.startswith(f"{speaker} ")
    return speaker in seats and (kind == "defend" or (kind == "claim" and not own))


def spoken_ground(ground: str, speaker: str) -> str:
    """A ground as `speaker` says it, in the first person: "I voted to exile P03 on day 1",
    "P02 suspected me"."""
    subject, rest = ground.split(" ", 1)
    rest = re.sub(rf"\b{speaker}\b", "me", rest)
    return f"{'I' if subject == speaker else subject} {rest}"


def render_act(act: dict[str, str], speaker: str) -> str:
    """One act as the sentence the table hears from `speaker`."""
    kind, seat, claimed, result = act["act"], act.get("seat"), act.get("role"), act.get("result")
    about = seat if seat and seat != "none" else None
    end = f": {spoken_ground(act['because'], speaker)}." if backs(act, speaker) else "."
    if kind == "claim" and claimed and claimed != "none":
        return f"I am the {claimed}{end}"
    if kind == "check" and about and result and result != "none":
        found = "a wolf" if result == "wolf" else "good"
        return f"I am the Seer, and my check found {about} {found}{end}"
    if kind == "saved" and about:
        return f"I am the Witch, and I saved {about} from the wolves{end}"
    if kind == "accuse" and about:
        return f"I suspect {about}{end}"
    if kind == "vouch" and about:
        return f"I trust {about}{end}"
    if kind == "defend":
        return f"I am not a wolf{end}"
    if kind == "follow_sheriff":
        return "I will vote with the sheriff."
    return "I have nothing to add."


def render(acts: Sequence[dict[str, str]], speaker: str) -> str:
    """A structured speech of `speaker` as one paragraph."""
    return " ".join(render_act(act, speaker) for act in acts) or "I have nothing to add."


def render_whisper(target: str, ground: str) -> str:
    """A structured speaker's whisper to its fellow wolves: its target, and its ground where
    the ground is about that target."""
    if target not in named(ground):
        return f"Let us kill {target}." if named(target) else "Let us kill nobody tonight."
    return f"Let us kill {target}: {ground}."


def contradiction(
    acts: Sequence[dict[str, str]], role: Role, checks: dict[str, str], saved: Sequence[str]
) -> str | None:
    """Why a seat's own acts contradict what it knows, if they do: a Seer reporting a check
    she never made or a result she did not see, a Witch a save she never made, another good
    seat a check or a save it could not make (the embedded model's villagers "saved" seats).
    A wolf's false report is a bluff, not a contradiction; so is any claim of a role."""
    good = camp_of(role) is Camp.GOOD
    for act in acts:
        seat = act.get("seat")
        if good and act["act"] == "check" and role is not Role.SEER:
            return f"a check, though you are the {role.value}, not the Seer"
        if good and act["act"] == "saved" and role not in (Role.WITCH, Role.GUARD):
            return f"a save, though you are the {role.value}, not the Witch"
        if role is Role.SEER and act["act"] == "check" and seat and seat != "none":
            seen = checks.get(seat)
            if seen is None:
                return f"a check of {seat} you never made"
            if act.get("result") not in (None, "none") and act["result"] != seen:
                return f"a check of {seat} that says {act['result']} where you saw {seen}"
        if role is Role.WITCH and act["act"] == "saved" and seat and seat not in saved:
            return f"a save of {seat} you never made"
    return None
