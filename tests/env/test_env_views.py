"""What an environment's agent sees is its seat's view alone, rendered by the prompt code
an LLM seat reads (RULES §9; docs/training.md, "Observations")."""

from pathlib import Path
from typing import Any

import pytest

from autowerewolf.env import raw_env
from autowerewolf.players.base import DecisionRequest
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.players.observation import features, prompted
from autowerewolf.rules.config import make_config
from autowerewolf.rules.engine import apply, is_terminal, new_game, pending_decision
from autowerewolf.rules.random_play import random_answers
from tests.fakes.chat import FakeChatModel
from tests.web.fake_model import fake_model_server
from tests.web.leaks import leaks


def walk(werewolf: Any, seed: int, look: Any) -> None:
    werewolf.reset(seed=seed)
    for agent in werewolf.agent_iter():
        obs, _, terminated, truncated, info = werewolf.last()
        if terminated or truncated:
            werewolf.step(None)
            continue
        look(agent, obs, info)
        werewolf.step(int(obs["action_mask"].nonzero()[0][0]))


def test_the_text_is_the_prompt_a_plain_llm_seat_is_sent() -> None:
    werewolf = raw_env("12-A", text_observations=True)
    chat = FakeChatModel()
    player = LLMPlayer(chat, "fake")
    player.reconsiders = False
    compared = []

    def look(agent: str, obs: dict[str, Any], info: dict[str, Any]) -> None:
        view = werewolf.table.view(agent)
        request = DecisionRequest(view=view, seed=0)
        before = len(chat.prompts)
        player.decide(request)
        shown = prompted(view)
        assert obs["text"] == f"{shown.system}\n\n{shown.user}"
        assert chat.prompts[before] == f"{shown.system}\n{shown.user}"  # the fake joins by \n
        compared.append(info["step"])

    walk(werewolf, 4, look)
    assert {"wolves", "seer", "exile_vote", "discussion"} <= set(compared)


def test_observations_leak_nothing_the_seat_may_not_know() -> None:
    werewolf = raw_env("12-B", text_observations=True)
    seen: dict[str, list[str]] = {}

    def look(agent: str, obs: dict[str, Any], info: dict[str, Any]) -> None:
        seen.setdefault(agent, []).append(obs["text"])

    for seed in (1, 2):
        seen.clear()
        walk(werewolf, seed, look)
        truth = werewolf.table.game
        for seat, texts in seen.items():
            assert leaks(texts, truth, seat) == [], seat


def test_features_read_incrementally_equal_features_of_the_whole_view() -> None:
    werewolf = raw_env("12-A", text_observations=False)

    def look(agent: str, obs: dict[str, Any], info: dict[str, Any]) -> None:
        whole = features(werewolf.table.view(agent))
        assert obs["observation"].tolist() == pytest.approx(whole)

    for seed in (3, 8):
        walk(werewolf, seed, look)


@pytest.mark.parametrize("board", ["12-A", "12-B", "9-standard", "8-arena"])
def test_every_legal_option_of_every_protocol_has_an_action(board: str) -> None:
    names = set(raw_env(board).table.actions.names)
    for protocol in ("round_robin", "bidding", "bid_once"):
        for seed in range(15):
            config = make_config(board, seed=seed, variants={"discussion": protocol})
            state, _ = new_game(config)
            while not is_terminal(state):
                decision = pending_decision(state)
                if decision is not None:
                    for options in decision.options.values():
                        assert set(options) <= names, options
                answers = random_answers(config.root, decision) if decision else {}
                state, _ = apply(state, answers, decision)


def test_opponents_can_be_llm_seats_from_a_models_file(tmp_path: Path) -> None:
    with fake_model_server() as url:
        models = tmp_path / "models.yaml"
        models.write_text(f"default: {{backend: api, base_url: '{url}', model: fake}}\n")
        werewolf = raw_env("9-standard", agents=["P01"], opponents="llm", models=models,
                           text_observations=False)  # fmt: skip
        werewolf.reset(seed=3)
        while not werewolf.table.over:
            werewolf.step(int(werewolf.observe("P01")["action_mask"].nonzero()[0][0]))
        llm_records = [r for h in werewolf.table._history.values() for r in h]
    assert llm_records and all(r.model == "fake" for r in llm_records)


def test_recorded_environment_decisions_are_chat_examples() -> None:
    import json

    import jsonschema

    from autowerewolf.evaluation.export.jsonl import public_part

    schema = json.loads(
        (Path(__file__).parents[2] / "docs" / "chat-export.schema.json").read_text()
    )
    werewolf = raw_env("9-standard", agents="camp:good", opponents="heuristic",
                       text_observations=False, record_examples=True)  # fmt: skip
    shown: list[str] = []

    def look(agent: str, obs: dict[str, Any], info: dict[str, Any]) -> None:
        shown.append(prompted(werewolf.table.view(info["seat"])).user)

    walk(werewolf, 6, look)
    lines = werewolf.table.chat_examples("env-6")
    assert len(lines) == len(shown) == werewolf.table.decisions
    for line, user in zip(lines, shown, strict=True):
        jsonschema.validate(line, schema)
        assert line["private"]["messages"][1]["content"] == user
        assert line["private"]["camp"] == "good"
    truth = werewolf.table.game
    assert leaks([public_part(line) for line in lines], truth, "public") == []
