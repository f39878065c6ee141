"""The PettingZoo environments (docs/training.md) pass PettingZoo's own tests on every
board and discussion protocol, and keep the game's rules: team rewards, penalties for
illegal actions, reproducible resets, the public transcript as `render()`."""

import functools
import types
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)

from autowerewolf.env import env, parallel_env, raw_env
from autowerewolf.extras import MissingExtra, require
from autowerewolf.rules.decisions import MAX_TEXT_CHARS, IllegalAction
from autowerewolf.rules.engine import returns

BOARDS = ["12-A", "12-B", "9-standard", "8-arena"]
PROTOCOLS = ["round_robin", "bidding", "bid_once"]
TABLES = [(b, p) for b in BOARDS for p in PROTOCOLS]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # PettingZoo's tests warn about naming ("player_0") and dict observations: style only.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize(("board", "protocol"), TABLES)
def test_pettingzoo_api_tests_pass(board: str, protocol: str) -> None:
    variants = {"discussion": protocol}
    api_test(env(board, variants=variants), num_cycles=400)
    parallel_api_test(parallel_env(board, variants=variants), num_cycles=400)
    seed_test(functools.partial(env, board, variants=variants), num_cycles=100)
    parallel_seed_test(functools.partial(parallel_env, board, variants=variants), num_cycles=100)


@pytest.mark.parametrize("board", BOARDS)
def test_every_agent_each_cycle_passes_api_and_max_cycles_tests(board: str) -> None:
    api_test(env(board, turns="all"), num_cycles=400)
    module = types.SimpleNamespace(
        env=functools.partial(env, board, turns="all"),
        parallel_env=functools.partial(parallel_env, board),
    )
    max_cycles_test(module)


def test_one_camp_against_heuristic_opponents_passes_the_api_test() -> None:
    api_test(env(agents="camp:wolf", opponents="heuristic"), num_cycles=400)
    api_test(env(agents=["P03"], opponents="heuristic", text_observations=False))
    parallel_api_test(parallel_env(agents="role:seer", opponents="heuristic"), num_cycles=400)


def play(werewolf: Any, choose: Any) -> dict[str, float]:
    """Play one game; returns every agent's summed rewards."""
    totals: dict[str, float] = {}
    for agent in werewolf.agent_iter():
        obs, reward, terminated, truncated, info = werewolf.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        werewolf.step(None if terminated or truncated else choose(agent, obs, info))
    return totals


def first_legal(agent: str, obs: dict[str, Any], info: dict[str, Any]) -> int:
    return int(obs["action_mask"].nonzero()[0][0])


def test_rewards_are_the_team_returns_and_shaping_is_paid_at_the_end() -> None:
    werewolf = raw_env("12-A", text_observations=False)
    werewolf.reset(seed=5)
    totals = play(werewolf, first_legal)
    game = werewolf.table.game
    assert totals == returns(game) and set(totals.values()) <= {-1.0, 0.0, 1.0}
    shaped = raw_env("12-A", text_observations=False, shaping=0.5)
    shaped.reset(seed=5)
    during: list[float] = []

    def watch(agent: str, obs: dict[str, Any], info: dict[str, Any]) -> int:
        during.append(shaped._cumulative_rewards[agent])
        return first_legal(agent, obs, info)

    shaped_totals = play(shaped, watch)
    assert not any(during)  # nothing is paid while the game runs
    dead = {camp: sum(not s.alive for s in game.seats if s.camp.value == camp)
            for camp in ("wolf", "good")}  # fmt: skip
    for seat in game.seats:
        enemy = "good" if seat.camp.value == "wolf" else "wolf"
        balance = (dead[enemy] - dead[seat.camp.value]) / len(game.seats)
        assert shaped_totals[seat.id] == pytest.approx(totals[seat.id] + 0.5 * balance)


def test_an_illegal_action_is_a_penalty_and_a_counted_fallback_or_an_error() -> None:
    werewolf = raw_env("12-A", text_observations=False, penalty=0.25)
    werewolf.reset(seed=1)
    agent = werewolf.agent_selection
    werewolf.step(0)  # "wait": never legal for a seat that is asked
    assert werewolf.rewards[agent] == -0.25
    werewolf.step("not-an-option")
    totals = play(werewolf, first_legal)
    assert werewolf.table.fallbacks[agent] >= 1
    strict = raw_env("12-A", illegal="error")
    strict.reset(seed=1)
    with pytest.raises(IllegalAction, match="is not legal"):
        strict.step(0)
    assert totals


def test_speeches_carry_the_agents_text_within_the_engines_bounds() -> None:
    werewolf = raw_env("12-A", text_observations=False, render_mode="ansi")
    werewolf.reset(seed=2)
    said: list[str] = []

    def speak(agent: str, obs: dict[str, Any], info: dict[str, Any]) -> Any:
        if "speak" in info.get("options", ()):
            said.append(agent)
            return {"option": "speak", "text": f"{agent} says hello. " + "x" * 3000}
        return first_legal(agent, obs, info)

    play(werewolf, speak)
    transcript = werewolf.render()
    assert said and transcript is not None
    spoken = [line for line in transcript.splitlines() if "says hello" in line]
    assert spoken and all(len(line) < MAX_TEXT_CHARS + 200 for line in spoken)
    assert "x" * (MAX_TEXT_CHARS - 100) in transcript
    assert "Night 1 falls" in transcript and "[wolves]" not in transcript  # public only


def test_actions_by_index_name_pair_and_mapping_are_the_same_action() -> None:
    games = []
    for form in ("index", "name", "pair", "mapping"):
        werewolf = raw_env("9-standard", text_observations=False)
        werewolf.reset(seed=11)
        names = werewolf.table.actions.names

        def choose(
            agent: str,
            obs: dict[str, Any],
            info: dict[str, Any],
            form: str = form,
            names: tuple[str, ...] = names,
        ) -> Any:
            index = first_legal(agent, obs, info)
            return {"index": index, "name": names[index], "pair": (names[index], ""),
                    "mapping": {"option": index}}[form]  # fmt: skip

        play(werewolf, choose)
        games.append([e.model_dump() for e in werewolf.table.events])
    assert all(g == games[0] for g in games)


def test_a_missing_extra_is_one_line_naming_it() -> None:
    with pytest.raises(MissingExtra, match=r"needs the 'train' extra .*pip install"):
        require("train", "no_such_module_for_this_test")


def test_bad_options_are_clear_errors() -> None:
    with pytest.raises(TypeError, match="unknown option 'oponents'"):
        env(oponents="random")
    with pytest.raises(ValueError, match="unknown role"):
        env("custom", roles=["werewolf", "wizard"])
    with pytest.raises(ValueError, match="controlled seats"):
        env(agents=["P13"])


def test_a_parallel_step_without_an_asked_agents_action_is_a_penalty() -> None:
    werewolf = parallel_env("8-arena", text_observations=False, penalty=0.5)
    _, infos = werewolf.reset(seed=3)
    asked = [a for a, info in infos.items() if info["options"]]
    assert asked
    _, rewards, *_ = werewolf.step({})
    assert all(rewards[a] == -0.5 for a in asked)
    assert all(rewards[a] == 0.0 for a in rewards if a not in asked)
    strict = parallel_env("8-arena", illegal="error")
    strict.reset(seed=3)
    with pytest.raises(IllegalAction, match="no action"):
        strict.step({})
