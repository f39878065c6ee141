"""What the report's numbers mean: each metric's definition and unit (the unit of
analysis its interval resamples, and what its n counts), and the figures' captions. Every
key the report publishes a number under (`metric_keys`) has a definition (a test)."""

from collections.abc import Mapping
from typing import Any

from autowerewolf.evaluation.bootstrap import MIN_GAMES
from autowerewolf.evaluation.debate.stats import METRICS as DEBATE_METRICS
from autowerewolf.evaluation.games.blunders import METRICS as BLUNDER_METRICS
from autowerewolf.evaluation.ratings.outcomes import TIE_LOGITS
from autowerewolf.evaluation.report.cells import CELL_COLUMNS, SMALL_MARK
from autowerewolf.evaluation.report.files import RATING_CHANCE
from autowerewolf.evaluation.report.metrics import KPI_NAMES, PER_DECISION, PER_GAME
from autowerewolf.evaluation.report.rating_tables import HEAD_TO_HEAD_NOTE

# docs/blunders.md's table: the blunder / its opportunities.
BLUNDERS = {
    "wolf_self_kill": "a wolf's night proposal names itself or a teammate / every wolf "
    "proposal, an empty knife included",
    "wolf_pack_kills_wolf": "the pack's final target is a wolf, credited to every wolf that "
    "proposed that night / nights the wolf proposed on (not in overall)",
    "wolf_needless_explosion": "a self-explosion without cause (docs/blunders.md) / the "
    "wolf's answers where exploding was legal and seen: sign-up, speeches, the explosion",
    "witch_poisons_good": "a poison on a non-wolf / poisons cast",
    "witch_poisons_revealed_good": "a poison on a good player whose role was public / poisons cast",
    "seer_recheck": "a check of a seat already checked or publicly revealed / checks",
    "hunter_shoots_good": "a shot at a non-wolf / shots fired (declining is not a shot)",
    "hunter_shoots_revealed_good": "a shot at a publicly revealed good player / shots fired",
    "good_ballot_on_revealed_good": "a good-camp exile ballot on a publicly revealed good "
    "player / good-camp exile ballots, abstentions included",
    "seer_ballot_on_checked_good": "the Seer's exile ballot on a seat her own check showed "
    "good / her exile ballots, abstentions included",
    "wolf_votes_teammate_out": "a wolf's exile ballot on a teammate / wolf exile ballots, "
    "abstentions included",
    "overall": "distinct blunder decisions / distinct opportunity decisions over every "
    "metric but wolf_pack_kills_wolf",
}

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
    "voided": "share of the contestant's games voided for the clean-game ratings: a seat "
    "answered illegally at first or fell back; Wilson 95% interval over games",
    "clean_games": "the contestant's games in which no seat answered illegally or fell back",
    "clean_skill": "Bradley-Terry skill fitted on the clean games alone (no seat answered "
    "illegally or fell back), intervals over resamples of those games",
    "illegal_rate": "decisions whose first answer was not a legal choice (re-prompted, or "
    "replaced by a fallback) / decisions",
    "fallback_rate": "decisions answered by a seeded random fallback / decisions",
    "second_look_rate": "decisions asked a second time after a legal answer against the "
    "seat's own side (docs/agents.md) / decisions",
    "timeout_rate": "decisions with an attempt that got no answer by its deadline (a model "
    "call retried after its client timed out, an agent program or endpoint past its "
    "deadline, then a fallback) / decisions",
    "out_of_character": "an LLM seat's speeches and wolf messages (decisions with text) that "
    "apologise or refuse, copy the prompt (8 words in a row of its rules, roles, decisions, "
    "strategies or notes) or contradict what the seat knew by that day (a Seer reporting a "
    "check she never made or a result she did not see, a Witch a save she never made, "
    "another good seat a check or a save: prompts/second_look.py) / those texts; no chance "
    "level (a random player writes no text)",
    "chance": "what a uniformly random player scores on the same opportunities, from each "
    "decision's legal options; for outcomes (win rates, survival, the werewolf KPI) the rate "
    "of the same camp or role over every game of the report; for ratings what contestants "
    "who all play alike score (BT 0, GTE 0, Elo 1500, OpenSkill mu 25); for P(A ranks above "
    "B) 0.5. Empty in the CSVs (null in metrics.json) where a random answerer has none: "
    "speeches out of character (a random player writes no text)",
    "scaffold": "an LLM contestant's scaffold baseline: the same metric of a uniformly random "
    "answerer through that contestant's harness (agent design, budget, speech form, second "
    "look, every model setting but the model), over the tournament's scaffold games, in which "
    "it holds every seat (offline, no model calls); what the harness scores with no skill "
    "behind it, so a metric beats its scaffold, not only chance, when its interval clears the "
    "baseline's. Empty for other contestants and where no baseline was played",
    "scaffold_lo": "the lower end of the scaffold baseline's 95% interval over its games",
    "scaffold_hi": "the upper end of the scaffold baseline's 95% interval over its games",
    "scaffold_games": "the scaffold games the baseline comes from (those with data for it)",
    "games": "the games a cell's value comes from (those with data for it); the unit every "
    "interval resamples",
    "n": "what a cell's value counts (its denominator: decisions, ballots, seats, games; "
    "units below); for ratings the contestant's games",
    "small": f"the cell rests on fewer than {MIN_GAMES} games (marked {SMALL_MARK} beside "
    "its games in the tables): its interval rests on a handful of clusters",
    "value": "the metric over every game of the report (a ratio of sums over games)",
    "hi": "the upper end of the 95% interval over games (lo)",
    "lo": "the lower end of the 95% interval over games: the 2.5% and 97.5% percentiles of the "
    "resampled values; for a share (a proportion between 0 and 1) never narrower than the "
    "Wilson score interval at Korn and Graubard's effective count (p(1-p) over the "
    "resampled variance, scaled for few clusters by (z/t)^2 on games - 1 degrees of "
    "freedom), and at 0 of n or n of n Wilson's over the games: a game is the smallest "
    "unit surely independent of the others",
    "win_by_role": "per role the contestant held: games whose winner was that role's camp / "
    "games it held the role; Wilson 95% interval",
    "win_by_camp": "per camp the contestant held: games that camp won / games it held it; "
    "Wilson 95% interval",
    "survival_by_role": "per role: the contestant's seats of that role alive at the end / "
    "those seats",
    "wolf_survival": "the contestant's wolf seats alive at the end / its wolf seats",
    "role_kpi": "each role's KPI (kpi_seer ... kpi_werewolf)",
    "decisions": "the contestant's decisions (answers the rules applied; probes and an "
    "agent's notes are no decisions); a count, no interval",
    "cost_complete": "whether every model the contestant used had a price (else its cost "
    "counts 0 for the unpriced ones)",
    "head_to_head": "per opponent: games both played whose results differed in which this "
    "contestant's seats scored more / those games; chance 0.5",
    "invalid_rate": "decisions answered invalidly (a fallback or an answer outside the "
    "options) / decisions",
    "latency_s_per_decision": "seconds of model time / decisions (0 for rule-based players)",
    **{
        key: f"{what} / games (0 for rule-based players)"
        for key, what in (
            ("tokens_per_game", "prompt and answer tokens of the contestant's seats"),
            ("tokens_in_per_game", "prompt tokens of the contestant's seats"),
            ("tokens_out_per_game", "answer tokens of the contestant's seats"),
            ("cost_usd_per_game", "US dollars of the contestant's model calls (price table)"),
            ("latency_s_per_game", "seconds of model time of the contestant's seats"),
            ("probe_calls_per_game", "model calls of measurement probes (apart from play)"),
            ("probe_tokens_per_game", "tokens of measurement probes"),
            ("probe_cost_usd_per_game", "US dollars of measurement probes"),
        )
    },
    "debate_by_role": "the debate and belief metrics per role the contestant held",
    **{f"blunders:{metric}": text for metric, text in BLUNDERS.items()},
    "bradley_terry": "Bradley-Terry skill in logits for taking over a whole camp (a logistic "
    "model of the winner with a camp intercept and a weak ridge prior); percentile interval "
    "over the report's resamples of the games",
    "bt_by_role": "a Bradley-Terry skill per (contestant, role), wolves' seats counting "
    "against the good camp; games: those in which the contestant held the role, n: its seats "
    "of the role; intervals over the report's first 200 resamples",
    "team_elo": "sequential team Elo (K 32, start 1500): a camp's rating is the seat-weighted "
    "mean of its members'; depends on game order; interval over the first 200 resamples, "
    "each replayed in game order",
    "openskill": "OpenSkill Plackett-Luce mu with mu ± 1.96 sigma (its own posterior, not a "
    "resample of games); depends on game order",
    "bt_difference": "A's Bradley-Terry skill minus B's, resampled jointly; chance 0",
    "p_above": "P(A ranks above B): the share of resamples in which A's skill exceeds B's by "
    f"more than {TIE_LOGITS:g} logits, ties counting half; chance 0.5",
    "win_difference": "A's win rate minus B's, resampled jointly; chance: the difference of "
    "their chance levels",
    "seats": "the design's seats over the report's games",
    "step_downs": "the model's calls that stepped its answer format down after a server "
    "refused the schema (strict schema, then non-strict, then JSON mode: "
    "backends/answer_format.py); a count over all its decisions",
}

# Fields that name what a row is about (a contestant, a pair, a design, a decision type).
IDENTIFIERS = frozenset({"contestant", "a", "b", "model", "agent", "player", "step"})


def metric_keys(data: Mapping[str, Any]) -> set[str]:
    """Every key under which metrics.json and the CSVs publish a number: each metric of the
    registries (per decision, per game, blunders, role KPIs, debate, ratings) and each key
    of a contestant's, a pair's, a design's and a validity row's entry; a group keyed by
    metrics (blunders, role KPIs) as its members, one keyed by roles, camps or opponents
    as itself."""
    keys = {*CELL_COLUMNS, *PER_DECISION, *PER_GAME, *DEBATE_METRICS, *RATING_CHANCE}
    keys |= {f"blunders:{m}" for m in BLUNDER_METRICS} | {f"kpi_{r}" for r in KPI_NAMES}
    keys |= {"bt_by_role", "voided", "clean_games", "clean_skill"}
    for entry in [*data["contestants"], *data["pairs"], *data["designs"], *data["validity"]]:
        for key, value in entry.items():
            if key == "blunders":
                keys |= {f"blunders:{m}" for m in value}
            elif key == "role_kpi":
                keys |= {f"kpi_{r}" for r in value}
            elif key not in IDENTIFIERS:
                keys.add(key)
    return keys


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
