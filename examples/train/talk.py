"""A small policy of each camp learns to talk and vote by self-play (numpy only, CPU,
minutes; docs/training.md, "Talking self-play").

The trainer answers the speeches (as speech acts: claims, check reports, accusations ...),
the wolves' proposals (with their whisper) and the exile votes; the built-in heuristic
player answers every other step of its seats (night checks, potions, the sheriff's
election). Each camp's policy is linear: an action's score is a bias per step and kind of
act plus, for an act about a seat (a vote, an accusation, a reported check), a weight
vector per step and kind times that seat's features and a few products of them
(`INTERACTIONS`). Both learn by REINFORCE: each decision's return is the rewards its seat
received after it (the team reward at the end plus the environment's dense reward for
exile votes on wolves, `--dense`; evaluation games have none), less a running baseline per
camp and step, over a running scale per camp, with an entropy bonus. One game in
`--selfplay-every` is self-play (both policies learn), the others the village against
heuristic wolves. Every `--eval-every` games the learned village plays `--eval-games`
games against heuristic wolves (fixed seeds, no learning; the most likely action unless
`--sampled`); the heuristic village plays the same seeds. `--mute` is the control: the
same training with every speech a pass.

Usage: python examples/train/talk.py [--games 6000] [--eval-every 1500] [--eval-games 500]
       [--mute] [--sampled] [--seed 0]
"""

import argparse
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from autowerewolf.env import raw_env
from autowerewolf.players.observation import (
    DECISION_STEPS,
    GLOBAL_FEATURES,
    SAY,
    SEAT_FEATURES,
)
from autowerewolf.rules.steps import STEPS

BOARD = "12-A"
# The steps the trainer answers: the speeches, the wolves' proposal (with its whisper),
# the exile votes.
TRAINED = tuple(str(s) for s in DECISION_STEPS if STEPS[s].text or "exile_vote" in str(s))
SEER_ROLE = GLOBAL_FEATURES.index("role=seer")
COLUMN = {name: i for i, name in enumerate(SEAT_FEATURES)}
# Products a linear score cannot form from one seat's features: a wolf report is worth
# more when one seat alone claims the Seer, and a seat alone in claiming it is worth
# sparing.
INTERACTIONS = ("called_wolf*one_seer_claim", "claims=seer*one_seer_claim")


def action_kinds(names: tuple[str, ...], seats: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Each action's kind (the act without its seat) and its seat's index (-1: none)."""
    kinds: dict[str, int] = {}
    kind_of, target = np.zeros(len(names), int), np.full(len(names), -1)
    index = {s: i for i, s in enumerate(seats)}
    for a, name in enumerate(names):
        words = name.split()
        about = [w for w in words if w in index]
        kind = " ".join("SEAT" if w in index else w for w in words)
        kind_of[a] = kinds.setdefault(kind, len(kinds))
        target[a] = index[about[0]] if about else -1
    return kind_of, target


def seat_inputs(seats: np.ndarray) -> np.ndarray:
    """Each seat's features followed by its INTERACTIONS."""
    alive_claims = seats[:, COLUMN["claims=seer"]] * seats[:, COLUMN["alive"]]
    one = float(alive_claims.sum() == 1.0)
    extra = np.stack(
        [seats[:, COLUMN["called_wolf"]] * one, seats[:, COLUMN["claims=seer"]] * one], axis=1
    )
    return np.concatenate([seats, extra], axis=1)


@dataclass
class Policy:
    """One camp's linear softmax policy over the legal actions."""

    kind_of: np.ndarray
    target: np.ndarray
    n_seats: int
    rng: np.random.Generator
    bias: np.ndarray = field(init=False)
    weights: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        n_kinds = int(self.kind_of.max()) + 1
        width = len(SEAT_FEATURES) + len(INTERACTIONS)
        self.bias = np.zeros((len(DECISION_STEPS), n_kinds))
        self.weights = np.zeros((len(DECISION_STEPS), n_kinds, width))

    def act(self, obs: dict[str, np.ndarray], legal: np.ndarray, greedy: bool) -> tuple[int, Any]:
        vector = obs["observation"]
        step = int(np.argmax(vector[1 : 1 + len(DECISION_STEPS)]))
        seats = vector[len(GLOBAL_FEATURES) :].reshape(self.n_seats, len(SEAT_FEATURES))
        inputs = seat_inputs(seats)
        kinds, targets = self.kind_of[legal], self.target[legal]
        about = np.where(targets[:, None] >= 0, inputs[np.maximum(targets, 0)], 0.0)
        scores = self.bias[step, kinds] + np.einsum("af,af->a", self.weights[step, kinds], about)
        probs = np.exp(scores - scores.max())
        probs /= probs.sum()
        choice = int(np.argmax(probs)) if greedy else int(self.rng.choice(len(legal), p=probs))
        return int(legal[choice]), (step, kinds, about, probs, choice)

    def learn(self, decision: Any, advantage: float, rate: float, entropy: float) -> None:
        """One REINFORCE step on a decision, plus `entropy` times the gradient of its
        policy's entropy (which keeps rare acts such as a claim tried)."""
        step, kinds, about, probs, choice = decision
        push = -probs * advantage
        push[choice] += advantage
        logs = np.log(np.maximum(probs, 1e-12))
        push -= entropy * probs * (logs - float(probs @ logs))
        push *= rate
        np.add.at(self.bias[step], kinds, push)
        np.add.at(self.weights[step], kinds, push[:, None] * about)


@dataclass
class Critic:
    """A running mean of the return per camp and step, and a running scale per camp."""

    mean: dict[tuple[str, int], float] = field(default_factory=dict)
    square: dict[str, float] = field(default_factory=dict)
    pace: float = 0.01

    def advantage(self, camp: str, step: int, ret: float) -> float:
        mean = self.mean.get((camp, step), ret)
        self.mean[camp, step] = mean + self.pace * (ret - mean)
        square = self.square.get(camp, 1.0)
        self.square[camp] = square + self.pace * ((ret - mean) ** 2 - square)
        return (ret - mean) / math.sqrt(max(self.square[camp], 1e-4))


@dataclass
class Talk:
    """How the learned Seer talks and whether the village follows her, over evaluation games."""

    games: int = 0
    seer_claims: int = 0  # games in which the learned Seer reported a check or claimed
    ballots: int = 0  # good ballots cast while a wolf she reported was alive
    followed: int = 0  # of those, on a seat she reported a wolf


def legal_actions(obs: dict[str, np.ndarray], mute: bool, names: tuple[str, ...]) -> np.ndarray:
    """The actions the policy picks among: at a speech the speech acts (a pass alone when
    mute), elsewhere every legal action."""
    legal = obs["action_mask"].nonzero()[0]
    acts = [a for a in legal if names[a].startswith(SAY)]
    if not acts:
        return legal
    return np.array([a for a in acts if names[a] == SAY + "pass"] if mute else acts)


def camps(werewolf: Any) -> dict[str, str]:
    """Each agent's camp in the deal (bookkeeping of the trainer, never shown to a policy)."""
    game, seat_of = werewolf.table.game, werewolf.ids.seat_of
    return {a: game.seat(seat_of[a]).camp.value for a in werewolf.agents}


@dataclass
class Game:
    """One game's decisions per agent, the rewards each received after each decision
    (`after[agent][k]`: after its decision k), and the winning camp."""

    decisions: dict[str, list[Any]] = field(default_factory=dict)
    after: dict[str, list[float]] = field(default_factory=dict)
    winner: str = "draw"

    def returns(self, agent: str) -> list[float]:
        """Each decision's return: the rewards its agent received after it."""
        return list(np.cumsum(self.after[agent][::-1])[::-1])


def play(
    werewolf: Any, policies: dict[str, Policy], mute: bool, talk: Talk | None, greedy: bool
) -> Game:
    camp_of = camps(werewolf)
    names = werewolf.table.actions.names
    played = Game()
    reported: set[str] = set()
    claimed = False
    for agent in werewolf.agent_iter():
        obs, reward, terminated, truncated, info = werewolf.last()
        after = played.after.setdefault(agent, [])
        if after:
            after[-1] += reward
        if terminated or truncated:
            werewolf.step(None)
            continue
        policy = policies[camp_of[agent]]
        legal = legal_actions(obs, mute, names)
        action, decision = policy.act(obs, legal, greedy)
        played.decisions.setdefault(agent, []).append(decision)
        after.append(0.0)
        name = names[action]
        if talk is not None and camp_of[agent] == "good":
            is_seer = obs["observation"][SEER_ROLE] == 1.0
            if is_seer and name.startswith((SAY + "check", SAY + "claim seer")):
                claimed = True
                if name.endswith(" wolf"):
                    reported.add(name.split()[2])
            if info["step"] == "exile_vote" and not is_seer:
                alive = set(werewolf.table.game.publicly_alive)
                if reported & alive:
                    talk.ballots += 1
                    talk.followed += name in reported
        werewolf.step(action)
    if talk is not None:
        talk.games += 1
        talk.seer_claims += claimed
    winner = werewolf.table.game.winner
    played.winner = winner.value if winner else "draw"
    return played


def interval(wins: int, n: int) -> tuple[float, float]:
    """Wilson's 95% interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


EVAL_SEED = 10_000_000


def heuristic_wins(heuristic: Any, games: int) -> int:
    """The heuristic village's wins against heuristic wolves on the evaluation seeds."""
    wins = 0
    for game in range(games):
        heuristic.reset(seed=EVAL_SEED + game)
        wins += heuristic.table.game.winner.value == "good"
    return wins


def evaluate(
    village: Any, baseline: int, policies: dict[str, Policy], args: argparse.Namespace
) -> str:
    """The learned village's win rate beside the heuristic village's on the same seeds."""
    talk, learned = Talk(), 0
    for game in range(args.eval_games):
        village.reset(seed=EVAL_SEED + game)
        played = play(village, policies, args.mute, talk, greedy=not args.sampled)
        learned += played.winner == "good"
    n = args.eval_games
    low, high = interval(learned, n)
    h_low, h_high = interval(baseline, n)
    follow = talk.followed / talk.ballots if talk.ballots else float("nan")
    return (f"learned {learned / n:.3f} [{low:.3f}, {high:.3f}]  heuristic {baseline / n:.3f} "
            f"[{h_low:.3f}, {h_high:.3f}]  seer claims {talk.seer_claims / n:.2f}  "
            f"village follows {follow:.2f} ({talk.ballots} ballots)")  # fmt: skip


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--eval-every", type=int, default=1500)
    parser.add_argument("--eval-games", type=int, default=500)
    parser.add_argument("--rate", type=float, default=0.005)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--selfplay-every", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mute", action="store_true")
    parser.add_argument("--sampled", action="store_true", help="evaluate sampled actions")
    parser.add_argument("--dense", type=float, default=0.1, help="the env's `dense` in training")
    return parser.parse_args()


def main() -> None:
    args = options()
    common = {"opponents": "heuristic", "steps": TRAINED, "assist": "heuristic",
              "dense": args.dense}  # fmt: skip
    selfplay = raw_env(BOARD, agents="all", **common)
    village = raw_env(BOARD, agents="camp:good", **common)
    evaluation = raw_env(BOARD, agents="camp:good", **{**common, "dense": 0.0})
    heuristic = raw_env(BOARD, agents="camp:good", opponents="heuristic", steps=(),
                        assist="heuristic")  # fmt: skip
    seats, names = selfplay.table.seats, selfplay.table.actions.names
    kind_of, target = action_kinds(names, seats)
    rng = np.random.default_rng(args.seed)
    policies = {camp: Policy(kind_of, target, len(seats), rng) for camp in ("good", "wolf")}
    critic, started = Critic(), time.process_time()
    print(f"{'mute' if args.mute else 'talking'} village, {BOARD}, trained steps: "
          f"{', '.join(TRAINED)}")  # fmt: skip
    baseline = heuristic_wins(heuristic, args.eval_games)
    print(f"games 0: {evaluate(evaluation, baseline, policies, args)}", flush=True)
    for game in range(1, args.games + 1):
        werewolf = selfplay if game % args.selfplay_every == 0 else village
        werewolf.reset(seed=args.seed * 1_000_000 + game)
        camp_of = camps(werewolf)
        played = play(werewolf, policies, args.mute, None, greedy=False)
        for agent, decisions in played.decisions.items():
            camp = camp_of[agent]
            for decision, ret in zip(decisions, played.returns(agent), strict=True):
                advantage = critic.advantage(camp, decision[0], ret)
                policies[camp].learn(decision, advantage, args.rate, args.entropy)
        if game % args.eval_every == 0:
            line = evaluate(evaluation, baseline, policies, args)
            print(f"games {game}: {line}  ({time.process_time() - started:.0f} CPU s)", flush=True)


if __name__ == "__main__":
    main()
