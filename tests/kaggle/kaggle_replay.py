"""A game recorded from Kaggle's engine (`kaggle_record.py`), replayed in ours on the `kaggle`
board through a script, and read back into the same record, so that the two can be compared
field by field: every death, proposal, ballot, tally, tie break and draw, reveal, speaking
and voting order, the winner, the scores and the final day.

The script (docs/scripts.md) is the recorded game: the deal, every decision by its key and
every draw Kaggle made with Python's `random` (first wolf, first speaker, first voter, tie
breaks and the draws when everyone abstained) as a fixed draw. The replay is strict: a
decision our engine asks that Kaggle never asked, a recorded decision or draw our engine
never reaches, or an answer our rules refuse, is a divergence, not a random fallback.

A night's death that ends the game is announced with its role before the winner is declared,
in both engines (game/night_elimination_manager.py:80-101, game/engine.py:262-270;
docs/rules.md §2).
"""

from collections import Counter
from typing import Any

from autowerewolf.gamefile import GameFile
from autowerewolf.players.simple import scripted_action
from autowerewolf.rules.decisions import Action
from autowerewolf.rules.engine import apply, is_terminal, new_game, pending_decision, returns
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.state import Cause, GameState
from tests.kaggle.kaggle_record import empty_night

HOW = {"plurality": "plurality", "tie_broken": "tie", "all_abstained": "all_abstained"}


class Divergence(AssertionError):
    """The engines disagree on a decision or a draw: our engine asks what Kaggle never did, or
    never reaches what Kaggle recorded."""


def script(game: dict[str, Any]) -> dict[str, Any]:
    """The recorded Kaggle game as a game file (docs/scripts.md) of the `kaggle` board."""
    decisions: dict[str, Any] = {}
    draws: dict[str, str] = {}
    for night in game["nights"]:
        n = night["night"]
        for wolf, target in night["proposals"]:
            decisions[f"n{n}:wolves:{wolf}"] = target or "none"
        if night["seer"] is not None:
            decisions[f"n{n}:seer"] = night["seer"][0]
        if night["guard"] is not None:
            decisions[f"n{n}:guard"] = night["guard"]
        draws[f"n{n}:wolf_order"] = night["wolf_order"][0]
        vote = night["vote"]
        if vote["how"] == "tie":
            draws[f"n{n}:wolf_tie"] = vote["chosen"]
        elif vote["how"] == "all_abstained":
            draws[f"n{n}:wolf_no_vote"] = vote["chosen"]
    for day in game["days"]:
        d = day["day"]
        speeches = zip(day["speakers"], day["speeches"], strict=True)
        for turn, (seat, text) in enumerate(speeches, start=1):
            decisions[f"d{d}:discussion:t{turn}:{seat}"] = {"option": "speak", "text": text}
        if day["speakers"]:
            draws[f"d{d}:speaking_start"] = day["speakers"][0]
        for voter, target in day["ballots"]:
            decisions[f"d{d}:exile_roll_call:{voter}"] = target or "abstain"
        if day["voters"]:
            draws[f"d{d}:vote_start"] = day["voters"][0]
        vote = day["vote"]
        if vote is not None and vote["how"] == "tie":
            draws[f"d{d}:exile_tie"] = vote["chosen"]
        elif vote is not None and vote["how"] == "all_abstained":
            draws[f"d{d}:exile_no_vote"] = vote["chosen"]
    return {
        "board": "kaggle",
        "seed": game["seed"],
        "deal": list(game["deal"]),
        "name_pool": [],
        "players": {"default": "scripted"},
        "decisions": decisions,
        "draws": draws,
    }


def play_script(file: dict[str, Any]) -> tuple[GameState, list[Event]]:
    """Play a game file's script strictly through the engine: every decision must be scripted
    and every scripted decision and draw must be reached."""
    game_file = GameFile.model_validate(file)  # read as `autowerewolf play --script` reads it
    config = game_file.setup(file["seed"]).build()
    seating = game_file.seating("scripted")
    decisions = seating.decisions
    state, events = new_game(config, draws=seating.draws)
    asked: set[str] = set()
    while not is_terminal(state):
        decision = pending_decision(state)
        answers: dict[str, Action] = {}
        if decision is not None:
            for seat, options in decision.options.items():
                action = scripted_action(decisions, decision.key, seat, options)
                if action is None:
                    raise Divergence(f"ours asks {seat} at {decision.key}; Kaggle never did")
                answers[seat] = action
            asked.add(decision.key)
        state, new = apply(state, answers, decision)
        events.extend(new)
    unasked = sorted(set(decisions) - asked)
    if unasked:
        raise Divergence(f"Kaggle's decisions {unasked[:3]} are never asked by ours")
    return state, events


def _tally(text: str | None) -> dict[str, int]:
    """Our vote result's totals ("P01: 2, P04: 1"; "no votes") as counts."""
    if not text or text == "no votes":
        return {}
    pairs = (item.split(": ") for item in text.split(", "))
    return {seat: int(float(weight)) for seat, weight in pairs}


def _vote(how: str, among: tuple[str, ...], chosen: str | None, tally: dict[str, int]) -> Any:
    return {"tally": tally, "how": how, "among": sorted(among), "chosen": chosen}


def read_back(state: GameState, events: list[Event], game: dict[str, Any]) -> dict[str, Any]:
    """Our game in the shape of the Kaggle record (`game` gives the seed, agent and engine)."""
    roles = {s.id: s.role.value for s in state.seats}
    nights: dict[int, dict[str, Any]] = {}
    days: dict[int, dict[str, Any]] = {}
    exiles: dict[int, Event] = {}
    for e in events:
        n = e.day
        night = nights.get(n)
        if e.kind is EventKind.WOLF_PROPOSAL:
            night = nights.setdefault(n, empty_night(n))
            night["wolf_order"].append(e.actor)
            night["proposals"].append([e.actor, e.target])
        elif e.kind is EventKind.WOLF_TARGET and night is not None:
            tally = Counter(t for _, t in night["proposals"] if t is not None)
            night["vote"] = _vote(HOW[e.value or ""], e.targets, e.target, dict(tally))
        elif e.kind is EventKind.SEER_RESULT and night is not None:
            night["seer"] = [e.target, e.text]
        elif e.kind is EventKind.GUARD and night is not None:
            if e.value == "saved":
                night["saved"] = e.target
            else:
                night["guard"] = e.target or "none"
        elif e.kind is EventKind.DEATH and e.value == Cause.WOLF_KILL and night is not None:
            night["died"] = [e.target, roles[e.target or ""]]
        elif e.kind is EventKind.DEATHS_ANNOUNCED and e.targets:
            night = nights[n]
            assert night["died"] is not None and e.targets == (night["died"][0],), e
            night["announced"] = e.text
        elif e.kind is EventKind.SPEECH and e.value == "discussion":
            day = days.setdefault(n, _day(n))
            day["speakers"].append(e.actor)
            day["speeches"].append(e.text)
        elif e.kind is EventKind.BALLOT:
            day = days.setdefault(n, _day(n))
            day["voters"].append(e.actor)
            day["ballots"].append([e.actor, e.target])
        elif e.kind is EventKind.VOTE_RESULT:
            days[n]["result"] = e
        elif e.kind is EventKind.EXILE:
            exiles[n] = e
    for n, day in days.items():
        result, exile = day.pop("result"), exiles[n]
        tally = _tally(result.text)
        if len(result.targets) == 1:
            day["vote"] = _vote("plurality", result.targets, exile.target, tally)
        elif result.targets:
            day["vote"] = _vote("tie", result.targets, exile.target, tally)
        else:
            day["vote"] = _vote("all_abstained", exile.targets, exile.target, tally)
        role = (exile.text or "").removeprefix("role=")
        day["exiled"] = [exile.target, role] if exile.target else None
    for night in nights.values():
        _check_reveal(night)
    return {
        "engine": game["engine"],
        "seed": game["seed"],
        "agent": game["agent"],
        "deal": [s.role.value for s in state.seats],
        "nights": [nights[n] for n in sorted(nights)],
        "days": [days[d] for d in sorted(days)],
        "winner": state.winner.value if state.winner is not None else None,
        "scores": returns(state),
        "final_day": state.day,
    }


def _day(n: int) -> dict[str, Any]:
    return {"day": n, "speakers": [], "speeches": [], "voters": [], "ballots": [], "vote": None}


def _check_reveal(night: dict[str, Any]) -> None:
    """Our announcement reveals the role Kaggle reveals (`died`), also when the death ends
    the game at that dawn."""
    announced = night.pop("announced", None)
    if night["died"] is None:
        return
    seat, role = night["died"]
    if announced is None:
        raise Divergence(f"night {night['night']}: {seat}'s death was never announced")
    if announced != f"{seat}={role}":
        raise Divergence(f"night {night['night']}: we reveal {announced!r}, Kaggle {seat}={role}")


def replay(game: dict[str, Any]) -> dict[str, Any]:
    """Our engine's record of the Kaggle game, played from its script."""
    state, events = play_script(script(game))
    return read_back(state, events, game)


def differences(kaggle: Any, ours: Any, path: str = "") -> list[str]:
    """Every field where the records differ, as `path: kaggle != ours`."""
    if isinstance(kaggle, dict) and isinstance(ours, dict):
        keys = sorted(set(kaggle) | set(ours))
        return [d for k in keys for d in differences(kaggle.get(k), ours.get(k), f"{path}.{k}")]
    if isinstance(kaggle, list) and isinstance(ours, list) and len(kaggle) == len(ours):
        return [
            d
            for i, (a, b) in enumerate(zip(kaggle, ours, strict=True))
            for d in differences(a, b, f"{path}[{i}]")
        ]
    return [] if kaggle == ours else [f"{path}: kaggle {kaggle!r} != ours {ours!r}"]
