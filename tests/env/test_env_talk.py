"""Speech acts and whispers as actions, control per step and role, fixed agent ids, the
global state and the dense reward (docs/training.md)."""

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import performance_benchmark, render_test

from autowerewolf.env import env, parallel_env, raw_env
from autowerewolf.env.common import standing
from autowerewolf.players.observation import SAY, WHISPER, SeatKnowledge, speech_menu
from autowerewolf.prompts import speech_acts
from autowerewolf.prompts.grounds import NO_GROUND
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.roles import Camp
from autowerewolf.rules.views import public_players


def step_through(werewolf: Any, choose: Any) -> None:
    for agent in werewolf.agent_iter():
        obs, _, terminated, truncated, info = werewolf.last()
        werewolf.step(None if terminated or truncated else choose(agent, obs, info))


def test_a_speech_act_is_spoken_as_the_structured_speakers_words_and_read_as_a_claim() -> None:
    werewolf = raw_env("12-A")
    werewolf.reset(seed=3)
    names = werewolf.table.actions.names
    spoken: list[tuple[str, str]] = []

    def choose(agent: str, obs: dict[str, Any], info: dict[str, Any]) -> int:
        legal = [names[i] for i in obs["action_mask"].nonzero()[0]]
        acts = [a for a in legal if a.startswith(SAY + "claim") or a.startswith(SAY + "accuse")]
        if acts:
            spoken.append((info["seat"], acts[-1]))
            return names.index(acts[-1])
        return names.index(legal[0])

    step_through(werewolf, choose)
    speeches = {(e.actor, e.text) for e in werewolf.table.events if e.kind is EventKind.SPEECH}
    for seat, act in spoken:
        said = speech_acts.spoken([{"say": act.removeprefix(SAY)}])
        assert (seat, speech_acts.render(said, seat)) in speeches
    claims = [a for _, a in spoken if "claim" in a]
    assert claims and spoken
    # The claims are read back as claims by the facts ledger, so they are features.
    column = werewolf.feature_names.index(f"{spoken[0][0]}.claims={claims[0].split()[-1]}")
    assert column > 0


def test_legal_speech_acts_are_the_structured_speakers_menu() -> None:
    werewolf = raw_env("12-A")
    seen_villager = seen_wolf = False

    def choose(agent: str, obs: dict[str, Any], info: dict[str, Any]) -> int:
        nonlocal seen_villager, seen_wolf
        table = werewolf.table
        acts = tuple(a for a in info["options"] if a.startswith(SAY))
        if acts:
            game = table.game
            me = game.seat(agent)
            living = [s.id for s in game.seats if s.id in game.publicly_alive]
            roles = list(dict.fromkeys(r.value for r in table.config.roles))
            known = SeatKnowledge(agent).observe(table.view(agent).events)
            assert acts == speech_menu(agent, me.role, living, roles, known)
            if me.role.value == "villager":
                seen_villager = True
                assert not any(" check " in f" {a} " or "saved" in a for a in acts)
            if me.camp is Camp.WOLF:
                seen_wolf = True
                assert any("check" in a for a in acts)
        return int(obs["action_mask"].nonzero()[0][0])

    for seed in (1, 2):
        werewolf.reset(seed=seed)
        step_through(werewolf, choose)
    assert seen_villager and seen_wolf


def test_a_whisper_names_the_target_and_says_the_structured_whisper() -> None:
    werewolf = raw_env("12-A", agents="camp:wolf", opponents="heuristic")
    werewolf.reset(seed=4)
    names = werewolf.table.actions.names
    info = werewolf.infos[werewolf.agent_selection]
    assert info["step"] == "wolves"
    whisper = next(a for a in info["options"] if a.startswith(WHISPER) and "none" not in a)
    werewolf.step(names.index(whisper))
    target = whisper.removeprefix(WHISPER)
    said = [e for e in werewolf.table.events if e.kind is EventKind.WOLF_PROPOSAL]
    assert said and said[0].text == speech_acts.render_whisper(target, NO_GROUND)


def test_the_trainer_answers_only_its_steps_and_a_built_in_player_the_rest() -> None:
    werewolf = raw_env("12-A", agents="camp:good", opponents="heuristic",
                       steps=["exile_vote"], assist="heuristic")  # fmt: skip
    asked: set[str] = set()

    def choose(agent: str, obs: dict[str, Any], info: dict[str, Any]) -> int:
        asked.add(info["step"])
        return int(obs["action_mask"].nonzero()[0][0])

    werewolf.reset(seed=5)
    step_through(werewolf, choose)
    assert asked == {"exile_vote"}
    with pytest.raises(ValueError, match="unknown step"):
        raw_env("12-A", steps=["no-such-step"])


def test_agent_ids_are_fixed_per_slot_and_map_to_the_deals_seats() -> None:
    werewolf = raw_env("12-A", agents="camp:wolf")
    assert werewolf.possible_agents == ["wolf_0", "wolf_1", "wolf_2", "wolf_3"]
    seen = set()
    for seed in (1, 2, 3):
        werewolf.reset(seed=seed)
        assert werewolf.agents == werewolf.possible_agents
        seats = [werewolf.ids.seat_of[a] for a in werewolf.agents]
        assert all(werewolf.table.game.seat(s).camp is Camp.WOLF for s in seats)
        assert seats == sorted(seats)
        seen.add(tuple(seats))
    assert len(seen) > 1  # the deal moves the seats, not the ids
    assert raw_env("12-A", agents="role:villager").possible_agents == [
        f"villager_{i}" for i in range(4)
    ]


def test_state_is_the_whole_game_for_a_critic() -> None:
    werewolf = raw_env("12-A")
    werewolf.reset(seed=2)
    state = werewolf.state()
    assert werewolf.state_space.contains(state)
    names = werewolf.spaces.state_names
    for seat in werewolf.table.game.seats:
        assert state[names.index(f"{seat.id}.role={seat.role.value}")] == 1.0
    parallel = parallel_env("12-A")
    parallel.reset(seed=2)
    assert np.array_equal(parallel.state(), state)


def test_dense_rewards_pay_good_ballots_on_wolves_and_are_off_by_default() -> None:
    def during(dense: float) -> list[float]:
        werewolf = raw_env("12-A", dense=dense)
        werewolf.reset(seed=6)
        paid: list[float] = []
        for _agent in werewolf.agent_iter():
            obs, reward, terminated, truncated, _ = werewolf.last()
            if terminated or truncated:
                werewolf.step(None)
                continue
            paid.append(reward)
            werewolf.step(int(obs["action_mask"].nonzero()[0][0]))
        return paid

    assert not any(during(0.0))
    assert {0.5, -0.5} & set(during(0.5))


def test_parallel_env_observes_only_the_asked_agents() -> None:
    parallel = parallel_env("12-A")
    observations, _ = parallel.reset(seed=1)
    for _ in range(30):
        asked = set(parallel.table.asked)
        for agent, obs in observations.items():
            assert obs["observation"].any() == (agent in asked)
        actions = {a: int(o["action_mask"].nonzero()[0][0]) for a, o in observations.items()}
        observations, *_ = parallel.step(actions)
        if not parallel.agents:
            break


def test_feature_names_and_the_env_standing_match_the_observation_and_the_view() -> None:
    werewolf = raw_env("9-standard")
    werewolf.reset(seed=1)
    obs = werewolf.observe(werewolf.agent_selection)
    assert len(werewolf.feature_names) == obs["observation"].shape[0]
    game = werewolf.table.game
    assert standing(game) == [
        (p.alive, p.sheriff, p.revealed_role, p.can_vote) for p in public_players(game)
    ]
    assert "text" not in obs  # text observations are opt-in


@pytest.mark.long
@pytest.mark.parametrize("board", ["12-A", "9-standard", "8-arena"])
def test_pettingzoo_render_test_and_performance_benchmark_run(board: str) -> None:
    render_test(lambda render_mode=None: env(board, render_mode=render_mode))
    performance_benchmark(env(board))
