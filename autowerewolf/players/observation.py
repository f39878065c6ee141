"""The environment's observation and action format, built from one seat's view alone.

The training environment (`autowerewolf.env`) and agents across a process boundary
(`cmd:`/`http:` agents, players/external.py) share it: an observation holds the seat's
view as text (the very messages an LLM seat of the plain design is sent, rendered by
prompts/seat_prompt.py from `prompts/`) and structured: the legal options, an action mask
over a fixed action list, the day, the step, and a vector of features. Nothing here reads
the game state: only the `SeatView` the rules give the seat (RULES §9).

Actions are the board's fixed list `action_names(seats)`: `wait` (legal only for a seat
that is not asked, in the environment's every-seat modes), the seat ids, the options'
tokens (none, abstain, save, run, ...) and the bids 0-4. A step that takes a text (a
speech, a wolf message) takes it beside the option, at most `MAX_TEXT_CHARS` characters.
"""

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from autowerewolf.players.features import CLAIMABLE, SeatKnowledge, feature_names, features

# The feature layout, for those that read it with the actions (examples/train/).
from autowerewolf.players.features import DECISION_STEPS as DECISION_STEPS
from autowerewolf.players.features import GLOBAL_FEATURES as GLOBAL_FEATURES
from autowerewolf.players.features import SEAT_FEATURES as SEAT_FEATURES
from autowerewolf.prompts import speech_acts
from autowerewolf.prompts.environment import waiting_line
from autowerewolf.prompts.grounds import NO_GROUND
from autowerewolf.prompts.memory import memory_text
from autowerewolf.prompts.recall import remember
from autowerewolf.prompts.seat_prompt import question_prompt
from autowerewolf.prompts.speech_acts import RESULTS, phrases
from autowerewolf.prompts.table_rules import system_prompt
from autowerewolf.rules.decisions import MAX_TEXT_CHARS, Option
from autowerewolf.rules.discussion import BID_OPTIONS
from autowerewolf.rules.roles import Role
from autowerewolf.rules.step_spec import TextKind
from autowerewolf.rules.steps import effect_of, takes_text
from autowerewolf.rules.views import SeatView

PROTOCOL = "autowerewolf.agent/1"
WAIT = "wait"
TOKENS: tuple[str, ...] = (*(o.value for o in Option), *BID_OPTIONS)
# A speech act's action is "say PHRASE" (prompts/speech_acts.py phrases); a wolf's whisper
# "whisper TARGET": the target proposed, with the structured speakers' whisper as its text.
SAY = "say "
WHISPER = "whisper "


def speech_act_names(seats: Sequence[str]) -> tuple[str, ...]:
    """Every speech act of a board with these seats, as actions: each phrase that
    speech_acts.phrases may offer, prefixed with SAY."""
    about = [f"{kind} {s}" for s in seats for kind in ("accuse", "vouch")]
    about += [f"check {s} {result}" for s in seats for result in RESULTS]
    about += [f"saved {s}" for s in seats]
    phrases_ = (*about, *(f"claim {r}" for r in CLAIMABLE), "defend", "follow_sheriff", "pass")
    return tuple(SAY + phrase for phrase in phrases_)


def whisper_names(seats: Sequence[str]) -> tuple[str, ...]:
    return tuple(WHISPER + target for target in (*seats, Option.NONE.value))


def action_names(seats: Sequence[str]) -> tuple[str, ...]:
    """The fixed action list of a board with these seats (docs/training.md, "Actions")."""
    return (WAIT, *seats, *TOKENS, *speech_act_names(seats), *whisper_names(seats))


class Actions:
    """A board's action list and the index of each name."""

    def __init__(self, seats: Sequence[str]) -> None:
        self.names = action_names(seats)
        self.index = {name: i for i, name in enumerate(self.names)}

    def indices(self, options: Sequence[str]) -> list[int]:
        """The indices of the legal action names; `wait` alone for a seat not asked."""
        return [self.index[option] for option in options or (WAIT,)]

    def mask(self, options: Sequence[str]) -> list[int]:
        """1 for each legal action name, 0 elsewhere."""
        mask = [0] * len(self.names)
        for index in self.indices(options):
            mask[index] = 1
        return mask


def speech_menu(
    seat: str,
    role: Role,
    living: Sequence[str],
    roles: Sequence[str],
    knowledge: "SeatKnowledge",
) -> tuple[str, ...]:
    """The speech acts `seat` may say, as actions: the structured speakers' own menu
    (speech_acts.phrases, with no ground to give), so a good seat reports only its own
    checks and cures and a wolf may bluff."""
    ledger = knowledge.ledger
    menu = phrases(seat, role, living, roles, ledger.checks(), sorted(ledger.saved()))
    return tuple(SAY + phrase for phrase in menu)


def whisper_menu(options: Sequence[str]) -> tuple[str, ...]:
    """The whispers of a wolf whose proposal may name these `options`."""
    return tuple(WHISPER + o for o in options)


@functools.lru_cache(maxsize=8192)  # a board has a few hundred actions per seat
def speech_text(action: str, seat: str) -> str | None:
    """The words of a speech act's action, as the structured speakers' renderer says them
    (None: not a speech act)."""
    if not action.startswith(SAY):
        return None
    return speech_acts.render(speech_acts.spoken([{"say": action.removeprefix(SAY)}]), seat)


@functools.lru_cache(maxsize=1024)
def whisper_action(action: str) -> tuple[str, str] | None:
    """A whisper's target and words (None: not a whisper)."""
    if not action.startswith(WHISPER):
        return None
    target = action.removeprefix(WHISPER)
    return target, speech_acts.render_whisper(target, NO_GROUND)


@dataclass(frozen=True)
class Prompted:
    """A seat's view as the messages an LLM seat reads."""

    system: str
    user: str

    @property
    def text(self) -> str:
        return f"{self.system}\n\n{self.user}"

    def messages(self) -> list[dict[str, str]]:
        return [{"role": "system", "content": self.system}, {"role": "user", "content": self.user}]


def prompted(view: SeatView) -> Prompted:
    """The plain design's messages for the seat's question; for a seat not asked, its
    instructions and the game so far, and that it waits."""
    if view.step is None:
        memory = remember(view)
        user = f"Game so far:\n{memory_text(memory.digest, memory.recent)}\n\n{waiting_line()}"
        return Prompted(system_prompt(view), user)
    prompt = question_prompt(view, view.step)
    return Prompted(prompt.system, prompt.user)


def text_kind(view: SeatView) -> TextKind | None:
    return takes_text(view.step) if view.step is not None else None


def request_json(view: SeatView, actions: Actions, seed: int, request_id: int) -> dict[str, Any]:
    """The one request an agent across a process boundary receives for a decision: the
    environment's observation of its seat, the seat's own seed (never the game's), and
    the answer's bounds (docs/agent-protocol.md)."""
    shown = prompted(view)
    return {
        "protocol": PROTOCOL,
        "id": request_id,
        "seat": view.seat,
        "day": view.day,
        "step": view.step,
        "key": view.decision_key,
        "options": list(view.options),
        "actions": list(actions.names),
        "action_mask": actions.mask(view.options),
        "features": features(view),
        "feature_names": list(feature_names([p.seat for p in view.players])),
        "text": shown.text,
        "messages": shown.messages(),
        "takes_text": text_kind(view),
        "max_text_chars": MAX_TEXT_CHARS,
        "effect": effect_of(view.step) if view.step is not None else None,
        "seed": seed,
    }
