"""What the report's numbers mean: each metric's definition and unit (the unit of
analysis its interval resamples, and what its n counts), and the figures' captions."""

from autowerewolf.evaluation.report.metrics import KPI_NAMES
from autowerewolf.evaluation.report.tables import HEAD_TO_HEAD_NOTE

DEFINITIONS = {
    "win": "share of the contestant's seats whose camp won, per game; Wilson 95% interval",
    "balanced_win_rate": "mean over roles of the role-conditional win rates",
    "key_role_survival": "share of seer/witch/hunter/guard/idiot seats alive at the end",
    "irp_ballot": "Kaggle Game Arena IRP: good-camp exile ballots aimed at a wolf / ballots",
    "vss_ballot": "Kaggle Game Arena VSS: on days a wolf was exiled, good-camp ballots of the "
    "deciding round aimed at that wolf / those ballots",
    "irp_game": "DSGBench/WereWolf-Plus IRP: per game, own good-camp ballots at wolves / "
    "own good-camp ballots; mean over games",
    "vss_game": "DSGBench/WereWolf-Plus VSS: per game, exiles that removed a wolf / exiles; "
    "mean over games with a good seat",
    **{f"kpi_{role}": text for role, text in KPI_NAMES.items()},
    "gte": "game-theoretic rating (Kaggle Game Arena, polarix ce_maxent): expected payoff "
    "against the max-entropy correlated equilibrium of the roles x contestants win-rate game, "
    "minus the equilibrium payoff (0 = in the equilibrium's support); bootstrap over games",
    "est": "Strategy Adaptation's Est: how well the other seats' role estimates read the "
    "design's seats (mean over estimate rounds of the mean Acc of their raters)",
    "blunders": "decisions wrong whatever the player believed, / the decisions that could "
    "have been (docs/blunders.md); every player kind",
    "illegal_rate": "decisions whose first answer was not a legal choice (re-prompted, or "
    "replaced by a fallback) / decisions",
    "fallback_rate": "decisions answered by a seeded random fallback / decisions",
    "second_look_rate": "decisions asked a second time after a legal answer against the "
    "seat's own side (docs/agents.md) / decisions",
    "out_of_character": "an LLM seat's speeches and wolf messages (decisions with text) that "
    "apologise or refuse, copy the prompt (8 words in a row of its rules, roles, decisions, "
    "strategies or notes) or contradict what the seat knew by that day (a Seer reporting a "
    "check she never made or a result she did not see, a Witch a save she never made, "
    "another good seat a check or a save: prompts/second_look.py) / those texts; no chance "
    "level (a random player writes no text)",
    "chance": "what a uniformly random player scores on the same opportunities, from each "
    "decision's legal options; for outcomes (win rates, survival, the werewolf KPI) the rate "
    "of the same camp or role over every game of the report; for ratings 0 (all alike)",
}

# The unit each interval resamples (always whole games) and what n counts.
UNITS = {
    "win": "games (n: games; one outcome per game, a share of seats in mixed games)",
    "win_by_role / win_by_camp": "games in which the contestant held the role / camp",
    "balanced_win_rate": "games (n: roles averaged)",
    "survival_by_role / key_role_survival / wolf_survival": "games (n: seats)",
    "irp_ballot / vss_ballot": "games (n: good-camp exile ballots / deciding-round ballots)",
    "irp_game / vss_game": "games (n: games with a good-camp ballot / with an exile)",
    "role_kpi": "games (n: the KPI's denominator: wolves, potions, nights guarded, shots)",
    "blunders": "games (n: opportunities, the decisions that could have been the blunder)",
    "fallback / illegal / invalid / second look rates": "games (n: decisions)",
    "out_of_character": "games (n: an LLM seat's speeches and wolf messages with text)",
    "tokens, cost, latency per game": "games (n: games)",
    "head_to_head": "games both played whose results differed (n: those games)",
    "sheriff_influence": "games (n: voters polled before the sheriff's summary)",
    "vote_swing / voting_entropy": "games (n: speeches followed by synthetic votes)",
    "est / irp_belief / deception": "games (n: estimate rounds)",
    "voting entropy by day": "games with that day (n: those games)",
    "design win rate": "games (n: teams, a design's seats of one camp in one game)",
    "ratings (Bradley-Terry, GTE) and pairwise differences": "games",
}

FIGURES = (
    ("ratings", "Ratings with 95% intervals over games", ""),
    ("role_win_rates", "Win rate by role", "Black dashes: the camp's win rate over every game."),
    ("head_to_head", "Pairwise win-rate heatmap", HEAD_TO_HEAD_NOTE),
    (
        "cost_vs_rating",
        "Cost against rating",
        "Bars: 95% intervals of the skill. Dashed: the Pareto frontier, the contestants no "
        "other beats on both cost and rating.",
    ),
    ("blunders", "Blunder rates", "Black dashes: a uniformly random player's rate."),
    (
        "validity",
        "Illegal answers, fallbacks and speeches out of character",
        "A random player's rate is 0; it writes no text, so it has no bar (and no chance "
        "level) for speeches out of character.",
    ),
)
