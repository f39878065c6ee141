"""Games recorded from Kaggle's own Werewolf engine (kaggle-environments 1.33.2, the `kaggle`
extra), in the shape `kaggle_replay.py` compares with ours.

A game is Kaggle's `standard` 8-player configuration
(`scripts/configs/run/rule_experiment/standard.yaml`: two round-robin discussion rounds from
a random first speaker, sequential day and night votes from a random first voter, random
tie breaks, roles revealed on death and exile, the Doctor may save himself), played by
`env.run` with Kaggle's own `random` agent, or with `abstaining`: the same agent, but it
abstains, votes for itself and protects nobody at times, so that the rules for abstentions
are played too. Python's `random` is seeded with the game's seed before the run: Kaggle
draws its ties, first speakers and first voters, and its agents their choices, from it.

What the engine decided is read from its own history, and the tally, the tied players and
the draw of every vote from its `Ballot` at the moment it decides (an observer around
`Ballot.get_elected`: the engine's code runs unchanged). Seats are named P01..P08 in
Kaggle's player order, so both engines use the same ids.

`python -m tests.kaggle.kaggle_record` rewrites the recorded games the default test run
replays (`kaggle_games.json`).
"""

import contextlib
import json
import logging
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

KAGGLE_VERSION = "1.33.2"
SEATS = tuple(f"P{i:02d}" for i in range(1, 9))
ROLES = {"Werewolf": "werewolf", "Villager": "villager", "Seer": "seer", "Doctor": "guard"}
TEAMS = {"Villagers": "good", "Werewolves": "wolf"}
ABSTAIN = "-1"  # Kaggle's abstention (game/protocols/vote.py:29)
RECORDED = Path(__file__).with_name("kaggle_games.json")
# The committed games: (agent, seeds) replayed by the default test run.
COMMITTED = (
    ("random", range(0, 20)),
    ("abstaining", range(1000, 1010)),
    ("often_abstaining", range(2000, 2005)),
)


def standard_config(seed: int) -> dict[str, Any]:
    """Kaggle's `standard` configuration, roles dealt by `seed` (randomize_roles)."""
    deal = [
        "Werewolf",
        "Werewolf",
        "Doctor",
        "Seer",
        "Villager",
        "Villager",
        "Villager",
        "Villager",
    ]
    agents = [
        {"role": role, "id": seat, "agent_id": "random"}
        for role, seat in zip(deal, SEATS, strict=True)
    ]
    agents[2]["role_params"] = {"allow_self_save": True}
    return {
        "seed": seed,
        "randomize_roles": True,
        "discussion_protocol": {
            "name": "RoundRobinDiscussion",
            "params": {"max_rounds": 2, "first_to_speak": "random"},
        },
        "day_voting_protocol": {"name": "SequentialVoting", "params": {"first_to_vote": "random"}},
        "werewolf_night_vote_protocol": {
            "name": "SequentialVoting",
            "params": {"first_to_vote": "random"},
        },
        "night_elimination_reveal_level": "role",
        "day_exile_reveal_level": "role",
        "agents": agents,
    }


def abstaining(rate: float) -> Callable[[Any], Any]:
    """Kaggle's random agent, except that at times (`rate`) a wolf or a voter abstains, a
    voter votes for himself (a tenth of the time) and the Doctor protects nobody."""

    def agent(obs: Any) -> Any:
        from kaggle_environments.envs.werewolf.game.actions import NoOpAction, VoteAction
        from kaggle_environments.envs.werewolf.game.consts import DetailedPhase, RoleConst
        from kaggle_environments.envs.werewolf.game.records import get_raw_observation
        from kaggle_environments.envs.werewolf.werewolf import random_agent

        raw = get_raw_observation(obs)
        phase = DetailedPhase(raw.detailed_phase)
        common = {"day": raw.day, "phase": raw.game_state_phase, "actor_id": raw.player_id}
        night = phase == DetailedPhase.NIGHT_AWAIT_ACTIONS
        draw = random.random()
        if night and raw.role == RoleConst.WEREWOLF and draw < rate:
            return VoteAction(**common, target_id=ABSTAIN).serialize()
        if night and raw.role == RoleConst.DOCTOR and draw < rate / 2:
            return NoOpAction(**common).serialize()
        if phase == DetailedPhase.DAY_VOTING_AWAIT and raw.player_id in raw.alive_players:
            if draw < rate:
                return VoteAction(**common, target_id=ABSTAIN).serialize()
            if draw < rate + 0.1:
                return VoteAction(**common, target_id=raw.player_id).serialize()
        return random_agent(obs)

    return agent


AGENTS: dict[str, str | Callable[[Any], Any]] = {
    "random": "random",  # Kaggle's own (werewolf.py:61-155)
    "abstaining": abstaining(0.35),
    "often_abstaining": abstaining(0.8),  # whole votes without a ballot, settled by a draw
}


@contextlib.contextmanager
def observed_ballots() -> Iterator[list[dict[str, Any]]]:
    """Every vote Kaggle settles, as it settles it: its tally, the players it draws among (the
    tied, or every valid target when nobody voted) and the one elected."""
    from kaggle_environments.envs.werewolf.game.protocols import vote

    decided: list[dict[str, Any]] = []
    settle = vote.Ballot.get_elected

    def observed(ballot: Any, potential_targets: list[str]) -> Any:
        tally = dict(ballot.get_tally())
        top = max(tally.values(), default=0)
        tied = sorted(t for t, n in tally.items() if n == top)
        elected = settle(ballot, potential_targets)
        how = "all_abstained" if not tally else "plurality" if len(tied) == 1 else "tie"
        pool = sorted(potential_targets) if not tally else tied
        decided.append({"tally": tally, "how": how, "among": pool, "chosen": elected})
        return elected

    vote.Ballot.get_elected = observed
    try:
        yield decided
    finally:
        vote.Ballot.get_elected = settle


def play(seed: int, agent: str = "random") -> Any:
    """One Kaggle game: its environment after `env.run`, and the votes it settled."""
    from kaggle_environments import make

    logging.getLogger("kaggle_environments").setLevel(logging.CRITICAL)
    random.seed(seed)
    env = make("werewolf", configuration=standard_config(seed))
    with observed_ballots() as decided:
        env.run([AGENTS[agent]] * len(SEATS))
    return env, decided


def record(seed: int, agent: str = "random") -> dict[str, Any]:
    """One Kaggle game as the record `kaggle_replay.py` compares."""
    env, decided = play(seed, agent)
    return from_history(env, decided, seed, agent)


def empty_night(n: int) -> dict[str, Any]:
    """Night `n` of a record before anything of it is read (both engines' records)."""
    return {
        "night": n,
        "wolf_order": [],
        "proposals": [],
        "guard": None,
        "seer": None,
        "vote": None,
        "saved": None,
        "died": None,
    }


def _day(n: int) -> dict[str, Any]:
    return {
        "day": n,
        "speakers": [],
        "speeches": [],
        "voters": [],
        "ballots": [],
        "vote": None,
        "exiled": None,
    }


def from_history(env: Any, decided: list[dict[str, Any]], seed: int, agent: str) -> dict[str, Any]:
    """Kaggle's history read into nights and days. Kaggle counts Night 0, Day 1, Night 1...:
    its night k is our Night k+1, its day k our Day k."""
    from kaggle_environments.envs.werewolf.game import records as r
    from kaggle_environments.envs.werewolf.game.consts import EventName, Phase

    state = env.game_state
    end = env.info.get("GAME_END") or {}
    if end.get("terminated_with_agent_error"):
        raise RuntimeError(f"Kaggle game {agent}/{seed} ended on an agent error")
    nights: dict[int, dict[str, Any]] = {}
    days: dict[int, dict[str, Any]] = {}
    announced: dict[int, list[str]] = {}  # the speaking order Kaggle announces each day
    for entry in (e for day in sorted(state.history) for e in state.history[day]):
        data, name = entry.data, entry.event_name
        at_night = entry.phase == Phase.NIGHT
        night = nights.setdefault(entry.day + 1, empty_night(entry.day + 1)) if at_night else None
        day = days.setdefault(entry.day, _day(entry.day)) if not at_night else None
        if name == EventName.VOTE_ORDER:
            order = list(data.vote_order_of_player_ids)
            if night is not None:
                night["wolf_order"] = order
            elif day is not None:
                day["voters"] = order
        elif name == EventName.VOTE_ACTION and entry.source in SEATS:
            # the protocol's own record of a ballot (a NoOp is an abstention: no data)
            target = data.target_id if data is not None else ABSTAIN
            ballot = None if target == ABSTAIN else target
            if night is not None:
                night["proposals"].append([entry.source, ballot])
            elif day is not None:
                day["ballots"].append([entry.source, ballot])
        elif name == EventName.HEAL_REQUEST:
            assert night is not None
            night["guard"] = "none"  # asked: protects nobody unless a heal follows
        elif name == EventName.HEAL_ACTION and isinstance(data, r.DoctorHealActionDataEntry):
            assert night is not None
            night["guard"] = data.target_id
        elif name == EventName.INSPECT_RESULT and isinstance(data, r.SeerInspectResultDataEntry):
            assert night is not None
            night["seer"] = [data.target_id, ROLES[str(data.role)]]
        elif name == EventName.HEAL_RESULT and isinstance(data, r.DoctorSaveDataEntry):
            assert night is not None
            night["saved"] = data.saved_player_id
        elif name == EventName.ELIMINATION and isinstance(
            data, r.WerewolfNightEliminationDataEntry
        ):
            assert night is not None
            night["died"] = [
                data.eliminated_player_id,
                ROLES[str(data.eliminated_player_role_name)],
            ]
        elif name == EventName.ELIMINATION and isinstance(data, r.DayExileElectedDataEntry):
            assert day is not None
            day["exiled"] = [data.elected_player_id, ROLES[str(data.elected_player_role_name)]]
        elif name == EventName.DISCUSSION_ORDER:
            assert day is not None
            announced[entry.day] = list(data.chat_order_of_player_ids)
        elif name == EventName.DISCUSSION and isinstance(data, r.ChatDataEntry):
            assert day is not None
            day["speakers"].append(data.actor_id)
            day["speeches"].append(data.message)
    for number, order in announced.items():  # Kaggle kept to the order it announced
        assert days[number]["speakers"] == order, (seed, number)
    # Kaggle settles one vote a night and one a day, in this order: N1, D1, N2, D2...
    kept_nights = [nights[n] for n in sorted(nights) if nights[n]["wolf_order"]]
    kept_days = [days[d] for d in sorted(days) if days[d]["speakers"] or days[d]["voters"]]
    chronological = sorted(
        [*kept_nights, *kept_days],
        key=lambda step: 2 * step["night"] - 1 if "night" in step else 2 * step["day"],
    )
    assert len(chronological) == len(decided), (len(chronological), len(decided))
    for step, vote in zip(chronological, decided, strict=True):
        step["vote"] = vote
    game_end = next(iter(state.get_event_by_name(EventName.GAME_END))).data
    return {
        "engine": f"kaggle-environments {KAGGLE_VERSION}",
        "seed": seed,
        "agent": agent,
        "deal": [ROLES[str(p.role.name)] for p in state.players],
        "nights": kept_nights,
        "days": kept_days,
        "winner": TEAMS[str(game_end.winner_team)],
        "scores": {seat: float(score) for seat, score in sorted(game_end.scores.items())},
        "final_day": game_end.last_day,
    }


def write_committed() -> None:
    games = [record(seed, agent) for agent, seeds in COMMITTED for seed in seeds]
    RECORDED.write_text(json.dumps(games, indent=None, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    write_committed()
