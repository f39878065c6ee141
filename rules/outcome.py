"""What a resolver did: the rule modules apply a rule and say what happened; the flow
(flow.py) decides from it, and from the step table, where the game goes next."""

from enum import StrEnum

from autowerewolf.rules.state import GameState


class Outcome(StrEnum):
    NEXT_SEAT = "next_seat"  # the next seat queued in `speakers` takes the same step
    DONE = "done"  # the step is over: the flow enters the step its table entry names `then`
    EXPLODED = "exploded"  # a wolf exploded (`exploder`): the self-explosion resolves
    CHAIN = "chain"  # deaths were queued, or a chain task is done: the death chain goes on
    GAME_OVER = "game_over"  # a side won or the days ran out (the state is at the end)
    ELECTED = "elected"  # the election is over, a sheriff elected or the badge lost
    CAMPAIGN = "campaign"  # several candidates (`speakers`) give campaign speeches
    ELECTION_TIE = "election_tie"  # the tied candidates (`speakers`) give PK speeches
    EXILE_TIE = "exile_tie"  # the tied players (`speakers`) give PK speeches
    DAY_OVER = "day_over"  # nobody was exiled, or the Idiot flipped: night falls
    BIDS = "bids"  # the players bid for the next discussion speech
    SPEAKS = "speaks"  # the seats queued in `speakers` give discussion speeches
    DEBATE_OVER = "debate_over"  # the discussion is over: the exile vote opens
    DUEL = "duel"  # the Knight (`speakers[0]`) declared a duel: he names the seat next


# A resolver's result: the state with the rule applied, and what happened.
Resolved = tuple[GameState, Outcome]
