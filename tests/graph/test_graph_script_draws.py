"""A script fixes the moderator's draws (docs/scripts.md, "Draws"): through `Games` and
`autowerewolf play --script`, checked before the game starts, kept by a fork's copy of the
game; and every draw the rules make is one a script can name."""

import re
from pathlib import Path

import pytest

from autowerewolf.gamefile import load_game_file
from autowerewolf.rules import common
from autowerewolf.rules.common import DRAW_NAMES, DRAWS
from autowerewolf.rules.config import make_config
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.keys import parse_draw_key
from autowerewolf.rules.random_play import play_random_game
from tests.graph.graph_helpers import assert_user_error, cli, new_games

# Night 1: both wolves abstain, so the victim is drawn: the script makes it P05. Day 1 starts
# speaking at the drawn seat P03 and the roll call at P06; every voter abstains and the
# drawn exile is P02, a wolf.
SCRIPT = """\
board: kaggle
seed: 11
deal: [werewolf, werewolf, villager, villager, villager, villager, seer, guard]
decisions:
  n1:wolves:P01: none
  n1:wolves:P02: none
  n1:guard: P08
  d1:exile_roll_call:P01: abstain
  d1:exile_roll_call:P02: abstain
  d1:exile_roll_call:P03: abstain
  d1:exile_roll_call:P04: abstain
  d1:exile_roll_call:P06: abstain
  d1:exile_roll_call:P07: abstain
  d1:exile_roll_call:P08: abstain
draws:
  n1:wolf_order: P02
  n1:wolf_no_vote: P05
  d1:speaking_start: P03
  d1:vote_start: P06
  d1:exile_no_vote: P02
"""


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "draws.yaml"
    path.write_text(SCRIPT)
    return path


def test_a_script_fixes_the_moderators_draws(tmp_path: Path, script: Path) -> None:
    game_file = load_game_file(script)
    games = new_games(tmp_path / "g.db")
    try:
        record = games.start("g", game_file.setup(11), game_file.seating("scripted"))
    finally:
        games.close()
    events = record.events
    proposals = [e.actor for e in events if e.kind is EventKind.WOLF_PROPOSAL and e.day == 1]
    assert proposals == ["P02", "P01"]
    (target,) = [e for e in events if e.kind is EventKind.WOLF_TARGET and e.day == 1]
    assert (target.target, target.value) == ("P05", "all_abstained")
    speeches = [e.actor for e in events if e.kind is EventKind.SPEECH and e.day == 1]
    assert speeches[:2] == ["P03", "P04"] and len(speeches) == 14
    ballots = [e.actor for e in events if e.kind is EventKind.BALLOT and e.day == 1]
    assert ballots == ["P06", "P07", "P08", "P01", "P02", "P03", "P04"]
    (exile,) = [e for e in events if e.kind is EventKind.EXILE and e.day == 1]
    assert (exile.target, exile.text) == ("P02", "role=werewolf")


def test_cli_plays_a_script_with_draws(tmp_path: Path, script: Path) -> None:
    result = cli("play", "--script", script, "--narration", "off", "--db", tmp_path / "a.db")
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    ("line", "fragments"),
    [
        ("  d1:exile_tye: P02\n", ("draw key 'd1:exile_tye'", "exile_tie")),
        ("  d1:exile_tie: P09\n", ("draw d1:exile_tie names 'P09'",)),
        ("  n1:wolf_no_vote: P01\n", ("n1:wolf_no_vote", "'P01' is not one of")),
    ],
)
def test_bad_draws_are_refused_before_the_game(
    tmp_path: Path, line: str, fragments: tuple[str, ...]
) -> None:
    bad = tmp_path / "bad.yaml"
    body = SCRIPT.replace("  n1:wolf_no_vote: P05\n", "")
    bad.write_text(body + line)
    assert_user_error(cli("play", "--script", bad, "--db", tmp_path / "g.db"), *fragments)
    assert not (tmp_path / "g.db").exists()


def test_every_draw_the_rules_make_is_a_named_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key the rules draw with is a draw key (keys.py) of one of DRAWS, at night or by
    day as DRAWS says (what a script may fix), and every draw is made in random games."""
    drawn: set[str] = set()
    real = common.pick

    def recording(seed: int, key: str, items: object) -> str:
        drawn.add(key)
        return real(seed, key, items)  # type: ignore[arg-type]

    monkeypatch.setattr(common, "pick", recording)
    for board in ("12-A", "8-arena", "kaggle"):
        for seed in range(15):
            play_random_game(make_config(board, seed=seed))
    names = set()
    for key in drawn:
        parsed = parse_draw_key(key)
        assert str(parsed) == key and DRAWS[parsed.name] is parsed.night, key
        names.add(parsed.name)
    assert names <= DRAW_NAMES
    sources = "".join(p.read_text() for p in Path(common.__file__).parent.glob("*.py"))
    assert all(re.search(rf"draw\(state, \"{name}\"", sources) for name in DRAW_NAMES)
