"""A game is validated once (issue 24: `play` ran the preflight twice and built its rules
config three times): `play` checks the game (preflight.check_game) before anything is
saved, starts it without checking it again, and the graph builds its config once more to
create it. The seed and the secret are chosen in one place (seeding.seed_and_secret)."""

from pathlib import Path

import pytest

from autowerewolf import preflight, seeding
from autowerewolf.rules.config import GameSetup
from tests.graph.graph_helpers import cli


def test_play_checks_the_game_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checks: list[str] = []
    builds: list[str] = []
    real_preflight, real_build = preflight.preflight, GameSetup.build

    def counted_preflight(setup: GameSetup, seating: object) -> object:
        checks.append(setup.board)
        return real_preflight(setup, seating)  # type: ignore[arg-type]

    def counted_build(self: GameSetup) -> object:
        builds.append(self.board)
        return real_build(self)

    monkeypatch.setattr(preflight, "preflight", counted_preflight)
    monkeypatch.setattr(GameSetup, "build", counted_build)
    result = cli("play", "--players", "random", "--board", "8-arena", "--seed", "3",
                 "--narration", "off", "--db", tmp_path / "g.db")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert checks == ["8-arena"]
    assert builds == ["8-arena", "8-arena"]  # the check, then the graph's setup node


def test_seed_and_secret_are_the_given_ones_or_fresh() -> None:
    assert seeding.seed_and_secret(7, "ab" * 16) == (7, "ab" * 16)
    assert seeding.seed_and_secret(0, "") == (0, "")  # "" is a secret too: the seed alone
    seed, secret = seeding.seed_and_secret(None, None)
    assert seed >= 0 and len(secret) == 2 * seeding.SECRET_BYTES
    assert seeding.seed_and_secret(None, None) != (seed, secret)
