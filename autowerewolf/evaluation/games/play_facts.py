"""What a game's decisions achieved, per seat: exile ballots at wolves (IRP and VSS, after
Kaggle Game Arena and DSGBench / WereWolf-Plus) and each role's KPI (WereWolf-Plus §3.2),
each beside the chance level of a uniformly random player on the same opportunities
(evaluation/chance.py). Without the game's records the chance levels are None.
"""

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from autowerewolf.evaluation.chance import OptionsIndex, share, targets
from autowerewolf.rules.events import Event, EventKind
from autowerewolf.rules.roles import Role, on_wolf_side


@dataclass
class Ballots:
    """One seat's exile ballots while in the good camp (every round; an abstention is a
    miss), and those of the deciding round on days a wolf was exiled."""

    cast: int = 0  # IRP denominator
    at_wolves: int = 0  # IRP numerator
    irp_chance: float = 0.0  # summed over `cast`: living wolves among the options
    deciding: int = 0  # VSS denominator
    at_exiled: int = 0  # VSS numerator: aimed at the wolf exiled that day
    vss_chance: float = 0.0  # summed over `deciding`: 1 / options with that wolf in them
    unknown: bool = False  # some ballot's options were not recorded: no chance level


@dataclass
class GameBallots:
    seats: dict[str, Ballots] = field(default_factory=lambda: defaultdict(Ballots))
    exiles: int = 0  # days whose vote removed someone (an Idiot's flip counts)
    wolf_exiles: int = 0
    exile_chance: float = 0.0  # summed over exiles: wolves among the day's candidates


def ballots(
    events: Sequence[Event], roles: Mapping[str, Role], options: OptionsIndex | None
) -> GameBallots:
    wolves = {s for s, r in roles.items() if on_wolf_side(r)}
    rounds: dict[tuple[int, int], list[Event]] = defaultdict(list)
    candidates: dict[int, set[str]] = defaultdict(set)
    out = GameBallots()

    def legal(ballot: Event) -> tuple[str, ...] | None:
        assert ballot.actor is not None
        found = options.ballot(ballot.actor, ballot.day, ballot.round) if options else None
        out.seats[ballot.actor].unknown |= found is None
        return found

    for e in events:
        if e.kind is EventKind.BALLOT and e.value == "exile" and e.actor:
            rounds[(e.day, e.round or 1)].append(e)
            choices = legal(e)
            if (e.round or 1) == 1:
                candidates[e.day].update(targets(choices or ()))
            if not on_wolf_side(roles[e.actor]):
                mine = out.seats[e.actor]
                mine.cast += 1
                mine.at_wolves += int(e.target is not None and e.target in wolves)
                mine.irp_chance += share(choices, wolves) or 0.0
        elif e.kind is EventKind.IDIOT_FLIP or (
            e.kind is EventKind.EXILE and e.value == "exiled" and e.target
        ):
            out.exiles += 1
            out.exile_chance += share(sorted(candidates[e.day]), wolves) or 0.0
            if e.kind is EventKind.EXILE and e.target in wolves:
                out.wolf_exiles += 1
                deciding = max(r for d, r in rounds if d == e.day)
                for ballot in rounds[(e.day, deciding)]:
                    assert ballot.actor is not None
                    if not on_wolf_side(roles[ballot.actor]):
                        mine = out.seats[ballot.actor]
                        mine.deciding += 1
                        mine.at_exiled += int(ballot.target == e.target)
                        mine.vss_chance += share(legal(ballot), {e.target}) or 0.0
    return out


@dataclass(frozen=True)
class Kpi:
    num: int
    den: int
    chance: float | None  # the numerator a random player would expect; None: an outcome


def role_kpi(
    events: Sequence[Event],
    roles: Mapping[str, Role],
    alive: Mapping[str, bool],
    options: OptionsIndex | None = None,
) -> dict[str, Kpi]:
    """Each seat's role KPI (after WereWolf-Plus, §3.2) with its chance numerator:

    Seer: distinct wolves checked / wolves (chance: per check, the share of its options
    that were wolves not yet found). Witch: saves of good players + poisons of wolves /
    potions used (a save's target is the wolves' victim, so its chance is its outcome; a
    poison's, the share of wolves among the seats it could poison). Guard: nights guarding
    the wolves' target / nights guarded (chance: one of the options). Hunter: shots at
    wolves / shots (chance: wolves among the seats it could shoot). Werewolf: alive at the
    end / 1, an outcome without a chance level.
    """
    wolves = {s for s, r in roles.items() if on_wolf_side(r)}
    kpi: dict[str, Kpi] = {s: Kpi(int(alive[s]), 1, None) for s in wolves}
    found: set[str] = set()
    counts: dict[Role, list[float]] = defaultdict(lambda: [0, 0, 0.0])  # num, den, chance
    unknown: set[Role] = set()  # roles with an opportunity whose options were not recorded
    wolf_target: dict[int, str | None] = {}
    guarded: list[tuple[int, str | None, str | None]] = []

    def chance(role: Role, seat: str | None, step: str, day: int, hits: set[str]) -> float:
        legal = options.options(seat, step, day) if options and seat else None
        if legal is None:
            unknown.add(role)
            return 0.0
        # A poison or a shot is judged once cast: drawn among the seats it could target.
        cast = role in (Role.WITCH, Role.HUNTER)
        return share(targets(legal) if cast else legal, hits) or 0.0

    for e in events:
        if e.kind is EventKind.SEER_RESULT:
            counts[Role.SEER][2] += chance(Role.SEER, e.seat, "seer", e.day, wolves - found)
            if e.target in wolves:
                found.add(e.target)
        elif e.kind is EventKind.WITCH_CURE:
            good = int(e.target is not None and e.target not in wolves)
            counts[Role.WITCH][0] += good
            counts[Role.WITCH][1] += 1
            counts[Role.WITCH][2] += good
        elif e.kind is EventKind.WITCH_POISON:
            counts[Role.WITCH][0] += int(e.target in wolves)
            counts[Role.WITCH][1] += 1
            counts[Role.WITCH][2] += chance(Role.WITCH, e.actor, "witch_poison", e.day, wolves)
        elif e.kind is EventKind.WOLF_TARGET:
            wolf_target[e.day] = e.target
        elif e.kind is EventKind.GUARD:
            guarded.append((e.day, e.actor or e.seat, e.target))
        elif e.kind is EventKind.HUNTER_SHOT and e.target:
            counts[Role.HUNTER][0] += int(e.target in wolves)
            counts[Role.HUNTER][1] += 1
            counts[Role.HUNTER][2] += chance(Role.HUNTER, e.actor, "hunter_shot", e.day, wolves)
    for day, guard, target in guarded:
        victim = wolf_target.get(day)
        counts[Role.GUARD][0] += int(target is not None and target == victim)
        counts[Role.GUARD][1] += 1
        counts[Role.GUARD][2] += chance(
            Role.GUARD, guard, "guard", day, {victim} if victim else set()
        )
    counts[Role.SEER][:2] = [len(found), len(wolves)]
    for seat, role in roles.items():
        if role in (Role.SEER, Role.WITCH, Role.GUARD, Role.HUNTER):
            num, den, expected = counts[role]
            known = options is not None and role not in unknown
            kpi[seat] = Kpi(int(num), int(den), expected if known else None)
    return kpi
