"""`benchmarks/balance.py` tallies every board preset's side balance under random and
heuristic self-play (docs/rules.md, "Side balance"): each board appears, every game is
counted once, and the heuristic's games are asked through the one asker."""

from collections import Counter

from autowerewolf.rules.config import BOARDS
from benchmarks.balance import KINDS, WINNERS, share, tally


def test_every_game_of_every_board_and_kind_is_counted_once() -> None:
    for kind in KINDS:
        for board in BOARDS:
            won = tally((kind, board, 0, 3))
            assert sum(won.values()) == 3 and set(won) <= {"good", "wolf", "draw"}


def test_a_seed_plays_the_same_game_every_time() -> None:
    assert [WINNERS["heuristic"]("12-A", s) for s in range(3)] == [
        WINNERS["heuristic"]("12-A", s) for s in range(3)
    ]


def test_a_share_carries_its_interval_at_zero() -> None:
    assert share(Counter(good=0, wolf=5), "good", 5).startswith("0.000 [0.000, 0.4")
