"""How often each kind of public evidence points at a real wolf, over finished games: what a
good seat's poison or shot may act on (`prompts/choices.py`, `has_evidence`).

    python benchmarks/evidence.py --db bench-models/qwen0.5b.db [--db DIR ...]

Reads the databases read-only (a file, or every `*.db` of a folder). Each finished game's
public events go through a seat's facts ledger (`autowerewolf/prompts/recall.py`) as
if every wolf were exposed, and each signal is judged by the true roles:
- voted with a wolf on no day, on one day, on `ALLY_DAYS` days or more: each pair of a wolf
  and another seat, by the days the seat voted for the same player as that wolf; is the
  seat a wolf too?
- vouched for a wolf ("I trust / vouch for / believe Pxx" of a wolf): is the speaker a wolf?
- reported as a wolf by one seat, by two or more (a seat's own report of a check,
  `NAMED_WOLF`): is the named seat a wolf?
- claimed a power role it does not hold (`CLAIM`, once per seat and role): is the
  claimant a wolf? The role's holder knows the claim is a lie (`claims_your_role`).

One Markdown row per signal: wolves/n (rate) with its 95% interval over games (a cluster
bootstrap of whole games, never narrower than Wilson's at its effective count), the games in
which the signal was seen, and the chance level: the share of wolves among the seats the
signal could have named (3 of 11 beside a wolf on the 12-player board, 4 of 12 for a
report, 4 of 11 for a claim: any seat but the role's holder). A seat killed on a signal of
rate r is good 1 - r of the time, so a Witch whose poisons may hit a good player at most 25%
of the time can act only on signals of 75% or more.
"""

import argparse
import re
import sys
from pathlib import Path

from autowerewolf.evaluation.bootstrap import (
    GameTable,
    Resamples,
    Sums,
    Values,
    bump,
    chance_ratio,
    proportion,
)
from autowerewolf.evaluation.report.cells import counted
from autowerewolf.evaluation.saved import finished_games
from autowerewolf.prompts.recall import ALLY_DAYS, CLAIM, FactsLedger
from autowerewolf.rules.events import EventKind
from autowerewolf.rules.roles import GODS
from autowerewolf.rules.views import public_events
from autowerewolf.runner import GameRecord

RESAMPLES = 2000  # bootstrap resamples of the games, drawn from seed 0: the same every run
VOUCHED = re.compile(r"\bI (?:trust|vouch for|believe) (P\d{2})\b", re.I)
BESIDE_A_WOLF = "beside a wolf"  # chance: another seat than a given wolf is a wolf
ANY_SEAT = "any seat"  # chance: a seat is a wolf
BUT_THE_HOLDER = "any seat but a role's holder"  # chance: a seat other than one is a wolf
FALSE_CLAIM = "claimed a power role it does not hold"


def _voted_with(days: int) -> str:
    if days >= ALLY_DAYS:
        return f"voted with a wolf on {ALLY_DAYS} days or more"
    return "voted with a wolf on one day" if days == 1 else "voted with a wolf on no day"


def _reported(reporters: int) -> str:
    return "reported as a wolf by one seat" if reporters == 1 else "reported by two or more"


SIGNALS: tuple[tuple[str, str], ...] = (
    *((_voted_with(days), BESIDE_A_WOLF) for days in range(ALLY_DAYS + 1)),
    ("vouched for a wolf", BESIDE_A_WOLF),
    (_reported(1), ANY_SEAT),
    (_reported(2), ANY_SEAT),
    (FALSE_CLAIM, BUT_THE_HOLDER),
)


def game_values(record: GameRecord) -> Values:
    """One game's counts: per signal, the seats it named ("n") and the wolves among them."""
    seats = [seat.id for seat in record.game.seats]
    wolves = {seat.id for seat in record.game.seats if seat.is_wolf}
    events = public_events(record.events)
    ledger = FactsLedger()
    for event in events:
        ledger.observe(event)
    values: Values = {}

    def judge(signal: str, seat: str) -> None:
        bump(values, (signal, "n"), 1)
        bump(values, (signal, "wolves"), seat in wolves)

    for wolf in sorted(wolves):
        days = ledger.days_voted_with(wolf)
        for seat in seats:
            if seat != wolf:
                judge(_voted_with(days[seat]), seat)
    vouchers = {
        (event.actor, named)
        for event in events
        if event.kind is EventKind.SPEECH and event.actor and event.text
        for named in VOUCHED.findall(event.text)
        if named in wolves and named != event.actor
    }
    for speaker, _ in sorted(vouchers):
        judge("vouched for a wolf", speaker)
    for named, reporters in ledger.named_wolves.items():
        judge(_reported(len(reporters)), named)
    roles = {seat.id: seat.role.value for seat in record.game.seats}
    powers = {role.value for role in GODS} & set(roles.values())
    false_claims = {
        (event.actor, claimed)
        for event in events
        if event.kind is EventKind.SPEECH and event.actor and event.text
        for claimed in (match.lower() for match in CLAIM.findall(event.text))
        if claimed in powers and roles[event.actor] != claimed
    }
    for speaker, _ in sorted(false_claims):
        judge(FALSE_CLAIM, speaker)
    bump(values, (BESIDE_A_WOLF, "wolves"), len(wolves) * (len(wolves) - 1))
    bump(values, (BESIDE_A_WOLF, "n"), len(wolves) * (len(seats) - 1))
    bump(values, (ANY_SEAT, "wolves"), len(wolves))
    bump(values, (ANY_SEAT, "n"), len(seats))
    bump(values, (BUT_THE_HOLDER, "wolves"), len(wolves))
    bump(values, (BUT_THE_HOLDER, "n"), len(seats) - 1)
    return values


def table(sources: list[Path]) -> list[str]:
    """The Markdown table of every signal over the finished games of `sources`."""
    per_game = GameTable()
    for source in sources:
        for _, _, record in finished_games(source):
            per_game.add(game_values(record))
    sums = Sums(per_game, Resamples(per_game.games, RESAMPLES, seed=0))
    lines = [
        f"{per_game.games} finished games",
        "",
        "| signal | wolves/n (rate) [95% interval over games] | games | chance |",
        "|---|---|---|---|",
    ]
    for signal, base in SIGNALS:
        chance = chance_ratio(sums, (base, "wolves"), (base, "n"))
        cell = proportion(sums, (signal, "wolves"), (signal, "n"), chance)
        shown = "-" if chance is None else f"{chance:.1%}"
        lines.append(f"| {signal} | {counted(cell, 'not seen')} | {cell['games']} | {shown} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(
        "--db", type=Path, action="append", required=True, help="a database or a folder of them"
    )
    args = parser.parse_args()
    missing = [str(path) for path in args.db if not path.exists()]
    if missing:
        sys.exit(f"error: no such database or folder: {', '.join(missing)}")
    print("\n".join(table(args.db)))


if __name__ == "__main__":
    main()
