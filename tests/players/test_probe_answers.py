"""Players without a model answer probes and bids: random from its seed, heuristic from its
beliefs, scripted seats like random ones."""

from autowerewolf.players.base import DecisionRequest
from autowerewolf.players.heuristic import HeuristicPlayer
from autowerewolf.players.simple import RandomPlayer, ScriptedPlayer
from autowerewolf.rules.decisions import Action, PendingDecision
from autowerewolf.rules.discussion import BID_OPTIONS
from autowerewolf.rules.views import seat_view
from tests.rules.rules_helpers import Game

# Default 12-A layout: P01-P04 wolves, P05-P08 villagers, P09 seer, P10 witch,
# P11 hunter, P12 guard.
ROLES = {"werewolf", "villager", "seer", "witch", "hunter", "guard"}


def ask(
    g: Game, seat: str, step: str, options: tuple[str, ...] = (), seed: int = 1
) -> DecisionRequest:
    probe = PendingDecision(
        step=step, key=f"d{g.state.day}:x:{step}", options={seat: options}, simultaneous=True
    )
    view = seat_view(g.state, g.events, seat, probe)
    return DecisionRequest(view=view, seed=seed, purpose="probe")


def test_random_estimates_cover_every_other_living_seat_and_repeat_from_the_seed() -> None:
    g = Game().night("P08").no_election()
    request = ask(g, "P05", "role_estimates")
    data = RandomPlayer().decide(request).record.data
    assert data is not None
    others = set(g.state.living) - {"P05"}
    assert set(data["estimates"]) == others == set(data["evidence"])
    assert all(
        set(r) == ROLES and set(r.values()) <= set(range(5)) for r in data["estimates"].values()
    )
    assert RandomPlayer().decide(request).record.data == data
    assert RandomPlayer().decide(ask(g, "P05", "role_estimates", seed=2)).record.data != data
    # A scripted seat answers probes as a random one: scripts answer the game's decisions.
    assert ScriptedPlayer({}).decide(request).record.data == data


def test_heuristic_estimates_follow_its_beliefs() -> None:
    g = Game().night(None, seer="P02").no_election()
    wolf = HeuristicPlayer().decide(ask(g, "P01", "role_estimates")).record.data
    assert wolf is not None
    assert all(wolf["estimates"][m]["werewolf"] == 4 for m in ("P02", "P03", "P04"))
    assert all(wolf["estimates"][s]["werewolf"] == 0 for s in ("P05", "P09", "P12"))
    seer = HeuristicPlayer().decide(ask(g, "P09", "role_estimates")).record.data
    assert seer is not None
    assert seer["estimates"]["P02"] == {r: 4 if r == "werewolf" else 0 for r in ROLES}
    assert seer["estimates"]["P05"]["werewolf"] == 2  # no information


def test_heuristic_bids_to_answer_when_named_and_speaks_once_otherwise() -> None:
    g = Game(variants={"discussion": "bidding"}).night(None).no_election()
    player = HeuristicPlayer()
    bid = player.decide(ask(g, "P05", "discussion_bid", BID_OPTIONS)).action.option
    assert bid == "1"  # nothing known, not spoken yet
    g.answer()  # all bid 0
    (speaker,) = g.pending.options
    named = "P06" if speaker != "P06" else "P05"
    g.raw({speaker: Action(option="speak", text=f"{named}, what do you say?")}).auto()
    assert player.decide(ask(g, named, "discussion_bid", BID_OPTIONS)).action.option == "4"
    again = player.decide(ask(g, speaker, "discussion_bid", BID_OPTIONS)).action.option
    assert again == "0"  # has spoken today, knows nothing more
