"""Discussion protocols (RULES §4, §6; docs/rules.md §6 "Discussion protocols"): round robin,
Werewolf Arena's bidding and bid-once, with Kaggle's tie order."""

from autowerewolf.rules.decisions import Action
from autowerewolf.rules.discussion import BID_OPTIONS, last_speech_pending, mentions
from autowerewolf.rules.events import Audience, EventKind
from autowerewolf.rules.state import Step
from tests.rules.rules_helpers import Game

# Default 12-A layout: P01-P04 wolves, P05-P08 villagers, P09 seer, P10 witch,
# P11 hunter, P12 guard.
BIDDING = {"discussion": "bidding"}
SHERIFF_ORDER = ["P08", "P09", "P10", "P11", "P12", "P01", "P02", "P03", "P04", "P05", "P06"]


def with_sheriff(variants: dict[str, object]) -> Game:
    """Day 1, peaceful night, P07 sheriff speaking clockwise: P08 first, P07 last."""
    return Game(variants=variants).night(None).elect("P07").answer(P07="clockwise")


def speak(g: Game, text: str = "") -> str:
    """The pending speaker says `text`; returns who spoke."""
    (who,) = g.pending.options
    g.raw({who: Action(option="speak", text=text)}).auto()
    return who


def bid(g: Game, **bids: str) -> str:
    """Everyone bids 0 except the named; returns who speaks next."""
    g.answer(bids)
    (who,) = g.pending.options
    return who


def speeches(g: Game) -> list[str]:
    return g.speeches("discussion")


def test_rules_6_bidding_bidders_and_options():
    """docs/rules.md §6: before each speech every living player below the cap bids 0-4; a
    living sheriff does not bid."""
    g = with_sheriff(BIDDING)
    assert g.step == Step.DISCUSSION_BID
    assert set(g.pending.options) == set(SHERIFF_ORDER)
    assert all(o == BID_OPTIONS for o in g.pending.options.values())
    assert g.pending.simultaneous and g.pending.key == "d1:discussion_bid:r1"


def test_rules_6_bidding_highest_bid_speaks():
    """docs/rules.md §6: the highest bid speaks."""
    g = with_sheriff(BIDDING)
    assert bid(g, P03="2", P10="4", P05="3") == "P10"
    assert g.pending.key == "d1:discussion:t1:P10"


def test_rules_6_bid_tie_named_in_last_speech_first():
    """docs/rules.md §6: on a tie, a player named in the last speech speaks first (by seat
    id or by display name), before players earlier in the day's order."""
    g = with_sheriff(BIDDING)
    bid(g, P10="4")
    speak(g, f"I suspect {g.state.seat('P06').name}.")
    assert bid(g, P03="3", P06="3") == "P06"
    speak(g, "P03, explain yourself.")
    assert bid(g, P03="3", P11="3") == "P03"


def test_rules_6_bid_tie_fewer_speeches_then_day_order():
    """docs/rules.md §6: then the player with fewer speeches today, then the day's speaking
    order (from the sheriff's direction)."""
    g = with_sheriff(BIDDING)
    assert bid(g, P03="1", P11="1") == "P11"  # P11 comes before P03 clockwise from P07
    speak(g)
    assert bid(g, P03="1", P11="1") == "P03"  # P11 has spoken once today


def test_rules_6_bidding_speech_cap_and_turns_sheriff_summary_last():
    """docs/rules.md §6: a player gives at most `speech_cap` speeches a day; the day has
    `discussion_turns` speeches, the sheriff's summary last, then the vote."""
    g = with_sheriff({**BIDDING, "discussion_turns": 5, "speech_cap": 2})
    for _ in range(2):
        assert bid(g, P05="4") == "P05"
        speak(g)
    assert "P05" not in g.pending.options
    assert bid(g, P06="4") == "P06"
    speak(g)
    assert bid(g) == "P08"  # all bid 0: the day's order decides
    speak(g)
    assert g.step == Step.DISCUSSION and g.pending.options == {"P07": ("speak",)}
    assert last_speech_pending(g.state)
    speak(g)
    assert g.step == Step.EXILE_VOTE
    assert speeches(g) == ["P05", "P05", "P06", "P08", "P07"]


def test_rules_6_bidding_default_turns_is_the_number_of_living_players():
    """docs/rules.md §6: by default a day has as many speeches as living players, here
    without a sheriff (nobody closes) and after one night death."""
    g = Game(variants={**BIDDING, "sheriff_enabled": False}).night("P08").answer(P08="speak")
    assert g.step == Step.DISCUSSION_BID and set(g.pending.options) == set(g.state.living)
    g.speak_all()
    assert g.step == Step.EXILE_VOTE and len(speeches(g)) == 11


def test_rules_6_lone_bidder_speaks_without_bidding():
    """docs/rules.md §6: with one player left below the cap there is nothing to bid for."""
    g = Game(
        variants={**BIDDING, "sheriff_enabled": False, "discussion_turns": 12, "speech_cap": 1}
    ).night("P08")
    g.answer(P08="speak")  # Night-1 last words
    for _ in range(10):
        bid(g)
        speak(g)
    assert g.step == Step.DISCUSSION and len(g.pending.options) == 1
    speak(g)
    assert g.step == Step.EXILE_VOTE and sorted(speeches(g)) == sorted(g.state.living)


def test_rules_6_bids_are_told_to_the_bidder_only():
    """docs/rules.md §6, RULES §9: each bid is an event for its bidder alone."""
    g = with_sheriff(BIDDING)
    bid(g, P03="2")
    bids = g.of(EventKind.BID)
    assert {e.seat for e in bids} == set(SHERIFF_ORDER)
    assert all(e.audience is Audience.SEAT and e.actor == e.seat for e in bids)
    assert next(e.value for e in bids if e.seat == "P03") == "2"


def test_rules_6_bid_once_fixes_the_order():
    """docs/rules.md §6: bid_once: one bid each at the start of the day, the order follows
    the bids (ties as in bidding), everyone speaks once, the sheriff last."""
    g = with_sheriff({"discussion": "bid_once"})
    assert g.pending.key == "d1:discussion_bid:r1"
    g.answer(P04="4", P12="3", P09="3")
    g.speak_all()
    assert g.step == Step.EXILE_VOTE
    assert speeches(g) == [
        "P04",
        "P09",
        "P12",
        *[s for s in SHERIFF_ORDER if s not in ("P04", "P09", "P12")],
        "P07",
    ]
    assert len(g.of(EventKind.BID)) == 11


def test_rules_6_bidding_wolf_explodes_in_his_speech():
    """RULES §6: a wolf who wins the bid may explode in place of his speech; the day ends."""
    g = with_sheriff(BIDDING)
    bid(g, P02="4")
    g.answer(P02="explode")
    assert not g.alive("P02") and g.state.day == 2 and g.step == Step.WOLVES


def test_rules_6_round_robin_last_speech_is_the_sheriffs():
    """RULES §4: with a sheriff the last discussion speech is his summary."""
    g = Game().night(None).elect("P07").answer(P07="clockwise")
    while not last_speech_pending(g.state):
        speak(g)
    assert g.pending.options == {"P07": ("speak",)}


def test_mentions_by_seat_or_name_in_order_of_first_mention():
    names = {"P01": "Alex", "P02": "Jules", "P03": "Jul"}
    assert mentions("Jules? No: P03, then Alex and P02.", names) == ("P02", "P03", "P01")
    assert mentions("Alexander and julesy", names) == ()
