"""The LLM player's fixed system prompt: the rules of its table (board, roles and rule flags)
and its role, in words, and the parts of role and decision wording that follow the flags."""

from collections import Counter
from collections.abc import Callable

from autowerewolf.prompts.texts import read_text, read_yaml
from autowerewolf.rules.roles import Role, on_wolf_side
from autowerewolf.rules.variants import (
    AllAbstain,
    DiscussionProtocol,
    ExileTie,
    ExileVoting,
    SeerResult,
    SpeakingStart,
    Variants,
    WinMode,
)
from autowerewolf.rules.views import SeatView, TableRules

_WOLF_WIN = {
    WinMode.SIDE: "The werewolves win when every villager or every god (special role) is dead.",
    WinMode.CITY: "The werewolves win when every good player is dead.",
    WinMode.PARITY: "The werewolves win when they equal or outnumber the good players.",
}
_DISCUSSION = {
    DiscussionProtocol.ROUND_ROBIN: "Each day every living player speaks once",
    DiscussionProtocol.BIDDING: (
        "Each day, before every speech, the players bid 0-4 in private to speak next and the "
        "highest bid speaks ({turns}, at most {cap} per player; the sheriff does not bid and "
        "speaks last)"
    ),
    DiscussionProtocol.BID_ONCE: (
        "Each day every living player bids 0-4 once in private, and the players speak in the "
        "order of their bids, highest first ({turns}; the sheriff does not bid and speaks last)"
    ),
}
_TIMES = {1: "once", 2: "twice"}
# Each Guard limit a flag sets: whether it holds, its words in the table's rules (of the
# Guard) and in the Guard's own instructions (to him).
_GUARD_LIMITS: tuple[tuple[Callable[[Variants], bool], str, str], ...] = (
    (
        lambda f: f.guard_no_repeat,
        "never the same one twice running",
        ", never the same player two nights running",
    ),
    (lambda f: not f.guard_can_self_guard, "never himself", ", never yourself"),
    (
        lambda f: f.guard_told_of_save,
        "he is told when it saves the victim",
        "; you are told when your protection saves the wolves' victim",
    ),
)


def _night_roles(flags: Variants) -> dict[Role, str]:
    guard = [of_him for holds, of_him, _ in _GUARD_LIMITS if holds(flags)]
    seer = (
        "the Seer learns one player's role"
        if flags.seer_result is SeerResult.ROLE
        else "the Seer checks whether one player is a wolf"
    )
    return {
        Role.SEER: seer,
        Role.WITCH: "the Witch may save the victim with her one cure or kill with her one poison",
        Role.GUARD: "the Guard protects one player from the wolves"
        + (f" ({'; '.join(guard)})" if guard else ""),
    }


def fragments(rules: TableRules) -> dict[str, str]:
    """The parts of role and decision wording that follow the table's roles and rule flags."""
    flags = rules.variants
    witch = Role.WITCH in rules.roles
    guard = [" (not from poison)"] if witch else []
    guard += [to_him for holds, _, to_him in _GUARD_LIMITS if holds(flags)]
    role = flags.seer_result is SeerResult.ROLE
    return {
        "seer_learns": "one player's role" if role else "whether one player is a wolf or good",
        "seer_check": "that player's role" if role else "whether that player is a wolf or good",
        "guard_limits": "".join(guard),
        "guard_rule": (
            " You cannot protect the same player two nights in a row."
            if flags.guard_no_repeat
            else ""
        ),
        "guard_witch": (
            " A player both guarded and saved by the Witch "
            + ("still dies" if flags.same_guard_same_save_kills else "lives")
            + ", so avoid guarding the obvious Night-1 target if the Witch will save."
            if witch
            else ""
        ),
        "wolf_none": (
            "; 'none' is an abstention, and if every wolf abstains the victim is drawn at random"
            if flags.wolves_must_kill
            else ""
        ),
    }


def _plural(role: Role, n: int) -> str:
    if n == 1:
        return role.value
    return "werewolves" if role is Role.WEREWOLF else f"{role.value}s"


def _special_rules(rules: TableRules) -> str:
    flags = rules.variants
    lines = []
    if flags.allow_wolf_self_explode:
        lines.append(
            "A werewolf may self-explode instead of speaking: he dies revealed and the rest of "
            "the day (speeches, vote) is cancelled."
        )
    if Role.HUNTER in rules.roles:
        when = "killed by the wolves or exiled" + (
            " or poisoned" if flags.hunter_can_shoot_if_poisoned else " (not when poisoned)"
        )
        lines.append(f"The Hunter, when {when}, may shoot one player, revealing himself.")
    if Role.WHITE_WOLF_KING in rules.roles and flags.allow_wolf_self_explode:
        lines.append(
            "The White Wolf King is a werewolf who, when he self-explodes, may take one "
            "player with him: that player dies at once, without last words."
        )
    if Role.KNIGHT in rules.roles:
        lines.append(
            "The Knight, once per game in his discussion turn, may duel a player instead of "
            "speaking, revealing himself: a werewolf dies revealed and night falls at once; "
            "a good player survives and the Knight dies."
        )
    if Role.IDIOT in rules.roles:
        lines.append("An exiled hidden Village Idiot reveals himself, survives and loses his vote.")
    if Role.GUARD in rules.roles and Role.WITCH in rules.roles:
        outcome = "dies" if flags.same_guard_same_save_kills else "lives"
        lines.append(f"A player both guarded and saved by the Witch {outcome}.")
    if Role.WITCH in rules.roles:
        heal = (
            "may cure herself on Night 1 only"
            if flags.witch_can_self_heal_n1
            else "cannot cure herself"
        )
        lines.append(f"The Witch {heal}.")
    if flags.exile_needs_majority:
        lines.append("An exile needs more than half of the votes cast.")
    return "".join(f"- {line}\n" for line in lines)


def _sheriff_rules(rules: TableRules) -> str:
    if not rules.variants.sheriff_enabled:
        return ""
    weight = f"{rules.variants.sheriff_vote_weight:g}"
    return (
        "- Day 1 opens with a sheriff election, before the Night-1 deaths are announced: "
        "candidates speak, may withdraw, and the non-candidates vote. The sheriff's exile vote "
        f"counts {weight}; he sets the speaking order and speaks last; when he dies he passes "
        "the badge or tears it.\n"
    )


def _discussion_rule(rules: TableRules) -> str:
    flags = rules.variants
    if flags.discussion is DiscussionProtocol.ROUND_ROBIN:
        rounds = flags.discussion_rounds
        text = f"Each day every living player speaks {_TIMES.get(rounds, f'{rounds} times')}"
        if rounds > 1:
            text += f", in {rounds} rounds in the same order"
        if flags.speaking_start is SpeakingStart.RANDOM_SEAT:
            start = "starting from a random seat each day"
            text += f", {start}" if not flags.sheriff_enabled else f" ({start} without a sheriff)"
        return text
    n = flags.discussion_turns
    turns = f"{n} speeches a day" if n else "as many speeches a day as there are living players"
    return _DISCUSSION[flags.discussion].format(cap=flags.speech_cap, turns=turns)


def _death_rule(flags: Variants) -> str:
    if flags.reveal_role_on_death:
        return (
            "At dawn the night's deaths are announced with each dead player's role, and an "
            "exiled player's role is revealed too."
        )
    return (
        "At dawn the night's deaths are announced by seat only: no cause, no role. Roles stay "
        "hidden on death unless revealed (a Hunter's shot, an Idiot's flip, a wolf's "
        "self-explosion)."
    )


def _vote_rule(flags: Variants) -> str:
    if flags.exile_vote is ExileVoting.ROLL_CALL:
        text = (
            "the players vote one at a time, in turn from a random seat, to exile one player "
            "(or abstain): each ballot is public as soon as it is cast, so later voters see the "
            "earlier ones."
        )
    else:
        text = "everyone votes to exile one player (or abstains). Ballots are published."
    return text + (" A player may vote to exile himself." if flags.exile_self_vote else "")


def _tie_rule(flags: Variants) -> str:
    rules = {
        ExileTie.PK: "On a tie, the tied players speak again and the others revote; a second "
        "tie exiles nobody.",
        ExileTie.DRAW: "A tie is broken by a random draw among the tied players.",
        ExileTie.NOBODY: "A tie exiles nobody.",
    }
    text = rules[flags.exile_tie]
    if flags.exile_all_abstain is AllAbstain.DRAW:
        text += " If everyone abstains, a random living player is exiled."
    return text


def _last_words_rule(flags: Variants) -> str:
    if not flags.last_words:
        return "- There are no last words: the dead say nothing more.\n"
    return "- Last words: players who die on Night 1 and every exiled player may speak once more.\n"


# The rules text (rules.md) up to this line is the same for every seat of a table: the
# embedded server computes it once and copies it into each seat's slot (players/factory.py).
# What follows names the role, never the seat: the seats that share a view
# (rules.views.shared_view) then share the whole system prompt, and their transcript.
_SEAT_PART = "Your role: {role}"


def _templates() -> tuple[str, str]:
    table, seat = read_text("rules.md").split(_SEAT_PART, 1)
    return table, _SEAT_PART + seat


def table_prompt(rules: TableRules) -> str:
    """The start of every seat's system prompt at a table with these rules."""
    counts = Counter(rules.roles)
    roles_summary = ", ".join(f"{n} {_plural(r, n)}" for r, n in counts.items())
    flags = rules.variants
    night = [text for r, text in _night_roles(flags).items() if r in counts]
    wolf_rule = (
        " (if none of them names a victim, one is drawn at random)"
        if flags.wolves_must_kill
        else ""
    )
    return _templates()[0].format(
        board=rules.board,
        n_seats=len(rules.roles),
        roles_summary=roles_summary,
        wolf_rule=wolf_rule,
        night_roles="; " + "; ".join(night) if night else "",
        death_rule=_death_rule(flags),
        sheriff_rules=_sheriff_rules(rules),
        discussion_rule=_discussion_rule(rules),
        vote_rule=_vote_rule(flags),
        tie_rule=_tie_rule(flags),
        last_words_rule=_last_words_rule(flags),
        special_rules=_special_rules(rules),
        wolf_win=_WOLF_WIN[flags.win_mode],
    )


def system_prompt(view: SeatView) -> str:
    """The seat's fixed instructions: the same text on every call (a cacheable prefix),
    the table's part first, then the role's. It names no seat, so the wolves (or the
    villagers) of a table are given the same text; who the seat is comes with each question
    (prompts/question.py)."""
    rules = view.rules
    role_text = read_yaml("roles.yaml")[view.role.value]
    assert isinstance(role_text, dict)
    team_line = (
        f"The werewolves are {', '.join(sorted((view.seat, *view.teammates)))}: you and your "
        "fellow wolves.\n"
        if view.teammates
        else ("You are the only werewolf.\n" if on_wolf_side(view.role) else "")
    )
    return table_prompt(rules) + _templates()[1].format(
        role=view.role.value,
        role_goal=role_text["goal"].format(**fragments(rules)),
        role_tactics=role_text["tactics"].format(**fragments(rules)),
        team_line=team_line,
    )
