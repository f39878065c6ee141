"""The bidding tie rules of docs/rules.md §6 ("Discussion protocols"), played from a script
alone (issue 24: a bid could not be scripted): ties go to a player named in the previous
speech, then to the one with fewer speeches today, then to the day's speaking order."""

from pathlib import Path

from autowerewolf.rules.events import EventKind
from tests.graph.graph_helpers import assert_user_error, cli, load_record, of_kind

SCRIPT = """\
board: 8-arena
seed: 4
secret: ""
variants: {discussion: bidding}
deal: [werewolf, werewolf, villager, villager, villager, villager, seer, guard]
draws:
  d1:speaking_start: P04            # the day's order: P04 P05 P06 P07 P08 P01 P02 P03
decisions:
  n1:wolves:P01: none
  n1:wolves:P02: none
  n1:seer: P03
  n1:guard: none
  # P03 and P05 tie; nobody is named, nobody has spoken: the speaking order picks P05.
  d1:discussion_bid:r1: {P01: "0", P02: "0", P03: "4", P04: "0", P05: "4", P06: "0",
                         P07: "0", P08: "0"}
  d1:discussion:t1:P05: {option: speak, text: "I suspect P03."}
  # P03 and P06 tie; P06 comes first in the order, but P05 just named P03.
  d1:discussion_bid:r2: {P01: "0", P02: "0", P03: "4", P04: "0", P05: "0", P06: "4",
                         P07: "0", P08: "0"}
  d1:discussion:t2:P03: {option: speak, text: "I am a simple villager."}
  # P05 and P06 tie, nobody named: P06 has spoken less today, though P05 comes first.
  # (A bid may be written as a number too.)
  d1:discussion_bid:r3: {P01: 0, P02: 0, P03: 0, P04: 0, P05: 4, P06: 4, P07: 0, P08: 0}
"""


def test_bid_ties_follow_the_rules_from_a_script(tmp_path: Path) -> None:
    script = tmp_path / "bids.yaml"
    script.write_text(SCRIPT, encoding="utf-8")
    db = tmp_path / "g.db"
    result = cli("play", "--script", script, "--db", db, "--game-id", "bids", "--narration", "off")
    assert result.exit_code == 0, result.stderr
    record = load_record(db, "bids", readonly=True)
    speeches = [
        e for e in of_kind(record.events, EventKind.SPEECH, day=1) if e.value == "discussion"
    ]
    assert [e.actor for e in speeches[:3]] == ["P05", "P03", "P06"]
    bids = {(e.actor, e.round): e.value for e in of_kind(record.events, EventKind.BID, day=1)}
    assert bids[("P03", 1)] == "4" and bids[("P06", 3)] == "4" and bids[("P04", 2)] == "0"
    scripted = {(r.key, r.seat) for r in record.records if r.player == "scripted"}
    assert ("d1:discussion_bid:r2", "P03") in scripted


def test_a_bid_outside_0_to_4_is_refused_before_the_game(tmp_path: Path) -> None:
    script = tmp_path / "bids.yaml"
    script.write_text(SCRIPT.replace('P03: "4", P04', 'P03: "7", P04', 1), encoding="utf-8")
    result = cli("play", "--script", script, "--db", tmp_path / "g.db")
    assert_user_error(result, "'7'", "d1:discussion_bid:r1", "0, 1, 2, 3, 4")
    assert not (tmp_path / "g.db").exists()
