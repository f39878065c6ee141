"""The cases of the CLI sweep (sweep.py): bad invocations of every command, and every
reading command on unusual databases. Arguments name prepared files with `@` tokens,
resolved by `sweep.Workspace`.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .helpers import ALL_READERS, reader_args

Expect = Literal["error", "ok-or-error"]
BIG = str(2**64)


@dataclass(frozen=True)
class Case:
    name: str
    args: tuple[str, ...]
    expect: Expect = "error"
    owner: str = "i8"  # where the fix belongs: "lead" = files the lead is refactoring
    readonly: bool = False  # a reader: its database must stay byte-identical


def _play(*args: str, owner: str = "i8") -> Case:
    return Case("play " + " ".join(args), ("play", "--players", "random", *args, "--db", "@new"),
                owner=owner)  # fmt: skip


def bad_invocations() -> list[Case]:
    """At least 120 invocations that must each end with exit code 2 and one line."""
    cases = [Case("unknown command", ("dance",)), Case("unknown flag", ("--loud",))]
    lead = "lead"
    cases += [
        _play("--board", "", owner=lead),
        _play("--board", "13-Z"),
        _play("--board", " "),
        Case(
            "play --players ''",
            ("play", "--players", "", "--models", "@models:dead", "--db", "@new"),
            owner=lead,
        ),
        _play("--players", "wizard"),
        _play("--seat", "P99=human", owner=lead),
        _play("--seat", "P03=wizard"),
        _play("--seat", "garbage"),
        _play("--seat", "=human"),
        _play("--seed", str(2**63), owner=lead),
        _play("--seed", BIG, owner=lead),
        _play("--seed", "abc"),
        _play("--variant", "no_such_flag=1"),
        _play("--variant", "sheriff_vote_weight=lots"),
        _play("--variant", "missing-equals"),
        _play("--variant", f"max_days={10**30}", owner=lead),
        _play("--variant", f"max_days={2**64}", owner=lead),
        _play("--roles", "werewolf,wizard"),
        _play("--roles", ",", owner=lead),
        _play("--watch", "loud"),
        _play("--narration", "loud"),
        _play("--game-id", "", owner=lead),
        _play("--max-days", "3"),
        _play("--config", "@file:a.yaml", "--script", "@file:a.yaml"),
        _play("--script", "@file:illegal_script.yaml", owner=lead),
        _play("--model", "default.temperature=hot"),
        _play("--model", "nonsense"),
        _play("--model", "default.backend=wizard"),
        _play("--models", "@missing"),
        _play("--models", "@file:unknown_model.yaml"),
        _play("--models", "@dir"),
    ]
    for name in SETTINGS_FILES:
        cases.append(_play("--config", f"@file:{name}"))
    for name in ("latin1.yaml", "deep.yaml", "huge.yaml"):
        cases += [_play("--script", f"@file:{name}"), _play("--models", f"@file:{name}")]
    for db in ("@dir", "@text", "@foreign", "@appid"):
        cases.append(Case(f"play --db {db}", ("play", "--players", "random", "--db", db)))
    cases.append(Case("play existing id", ("play", "--players", "random", "--game-id", "g",
                                           "--db", "@good")))  # fmt: skip
    cases += [
        Case("resume unknown", ("resume", "nope", "--db", "@good")),
        Case("resume missing db", ("resume", "g", "--db", "@missing")),
        Case("resume dir", ("resume", "g", "--db", "@dir")),
        Case(
            "resume finished --answer",
            ("resume", "g", "--answer", "P03=P07", "--db", "@good"),
            owner=lead,
        ),
        Case(
            "resume not-waiting seat",
            ("resume", "w", "--answer", "P99=P01", "--db", "@waiting"),
            owner=lead,
        ),
        Case(
            "resume illegal option",
            ("resume", "w", "--answer", "P03=nonsense", "--db", "@waiting"),
            owner=lead,
        ),
        Case("resume waiting, no answer", ("resume", "w", "--db", "@waiting")),
        Case("resume --answer garbage", ("resume", "w", "--answer", "garbage", "--db", "@waiting")),
        Case("resume --say garbage", ("resume", "w", "--say", "garbage", "--db", "@waiting")),
        Case("resume --watch loud", ("resume", "g", "--watch", "loud", "--db", "@good")),
        Case("resume no id", ("resume", "--db", "@good")),
        Case("resume foreign", ("resume", "g", "--db", "@foreign")),
    ]
    batch = ("batch", "--players", "random", "--board", "8-arena")
    cases += [
        Case("batch " + " ".join(extra), (*batch, *extra, "--db", db), owner=owner)
        for extra, db, owner in (
            (("--games", "0"), "@new", "i8"),
            (("--games", "-1"), "@new", "i8"),
            (("--concurrency", "0"), "@new", "i8"),
            (("--seat", "P01=human"), "@new", "i8"),
            (("--players", "human"), "@new", "i8"),
            (("--board", "13-Z"), "@new", "i8"),
            (("--variant", "x=y"), "@new", "i8"),
            (("--config", "@missing"), "@new", "i8"),
            (("--games", "abc"), "@new", "i8"),
            (("--seed-start", BIG), "@new", lead),
            (("--games", "1"), "@dir", "i8"),
            (("--games", "1"), "@foreign", "i8"),
            (("--config", "@file:deep.yaml"), "@new", "i8"),
        )
    ]
    for db in ("@missing", "@dir", "@text", "@foreign", "@empty"):
        cases.append(Case(f"games --db {db}", ("games", "--db", db), readonly=True))
    cases.append(Case("games extra arg", ("games", "extra", "--db", "@good")))
    viewers = {
        "inspect": [("nope",), ("g", "--step", "999"), ("g", "--step", "-1"),
                    ("g", "--step", "abc"), ("g", "--as", "wolves"), ("g", "--as", "P77"),
                    ("g", "--as", ""), ()],
        "history": [("nope",), ()],
        "replay": [("nope",), ("g", "--as", "P99"), ("g", "--as", ""), ()],
    }  # fmt: skip
    for command, variants in viewers.items():
        for extra in variants:
            cases.append(Case(f"{command} {' '.join(extra)}", (command, *extra, "--db", "@good"),
                              readonly=True))  # fmt: skip
        for db in ("@missing", "@dir"):
            cases.append(Case(f"{command} --db {db}", (command, "g", "--db", db), readonly=True))
    fork = ("fork", "g", "--db", "@good")
    cases += [
        Case("fork " + " ".join(extra), (*fork, *extra), owner=owner)
        for extra, owner in (
            (("--step", "999"), "i8"),
            (("--step", "-1"), "i8"),
            ((), "i8"),
            (("--step", "0", "--set", "garbage"), "i8"),
            (("--step", "0", "--set", "P01.exile_vote=P02"), "i8"),
            (("--step", "0", "--set", "P99.wolves=P01"), "i8"),
            (("--step", "1", "--new-id", "g"), "i8"),
            (("--step", "1", "--seed", BIG), lead),
            (("--step", "1", "--watch", "loud"), "i8"),
            (("--step", "1", "--narration", "loud"), "i8"),
            (("--step", "x"), "i8"),
        )
    ]
    cases.append(Case("fork unknown", ("fork", "nope", "--step", "1", "--db", "@good")))
    cases.append(Case("fork missing db", ("fork", "g", "--step", "1", "--db", "@missing")))
    for source in ("@missing", "@dir", "@file:latin1.yaml", "@file:deep.yaml",
                   "@file:aliases.yaml", "@file:list.yaml", "@file:unknown.yaml",
                   "@file:one_contestant.yaml", "@file:huge.yaml"):  # fmt: skip
        cases.append(Case(f"tournament {source}", ("tournament", source, "--out", "@out")))
    cases += [
        Case("tournament --concurrency 0", ("tournament", "@file:tournament.yaml",
                                            "--concurrency", "0", "--out", "@out")),
        Case("tournament foreign db", ("tournament", "@file:tournament.yaml", "--db", "@foreign",
                                       "--out", "@out")),
        Case("tournament dir db", ("tournament", "@file:tournament.yaml", "--db", "@dir",
                                   "--out", "@out")),
        Case("tournament huge max_days", ("tournament", "@file:tournament_days.yaml",
                                          "--out", "@out"), owner=lead),
    ]  # fmt: skip
    for source in ("@missing", "@dir", "@text", "@foreign", "@empty"):
        cases.append(Case(f"report {source}", ("report", source, "--out", "@out"),
                          readonly=True))  # fmt: skip
    cases += [
        Case("report --resamples 5", ("report", "@good", "--resamples", "5", "--out", "@out")),
        Case("report unknown tournament", ("report", "@good", "--tournament", "nope",
                                           "--out", "@out"), readonly=True),
        Case("report no source", ("report",)),
    ]  # fmt: skip
    return cases


DAMAGED_SEEDS = range(6)
DB_KINDS = (
    *(f"@damaged:{seed}" for seed in DAMAGED_SEEDS),
    "@foreign", "@empty", "@text", "@rofile", "@rofolder", "@crashed", "@walnoshm",
    "@headeronly", "@newer", "@appid",
)  # fmt: skip


def database_runs() -> list[Case]:
    """Every reader on every kind of unusual database: exit 0 or 2, and no change."""
    cases = []
    for kind in DB_KINDS:
        for reader in ALL_READERS:
            args = tuple(str(a) for a in reader_args(reader, Path(kind), Path("@out")))
            if kind == "@crashed":
                args = tuple("crashed" if a == "g" else a for a in args)
            cases.append(Case(f"{reader} on {kind}", args, "ok-or-error", readonly=True))
    return cases


_A = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 9)
)
_TOURNAMENT = "name: t\nboard: 8-arena\ngames: 2\ncontestants: [{name: a, kind: random}, "
SETTINGS_FILES: dict[str, bytes] = {
    "latin1.yaml": "board: 12-A\nname: Jos\xe9\n".encode("latin-1"),
    "utf16.json": '{"board": "12-A"}'.encode("utf-16"),
    "deep.yaml": b"a: " + b"[" * 1500 + b"]" * 1500 + b"\n",
    "deep.json": b'{"a": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
    "aliases.yaml": _A.encode(),
    "huge.yaml": b"# " + b"x" * 1_100_000 + b"\n",
    "broken.yaml": b"board: [12-A\n",
    "list.yaml": b"- 1\n- 2\n",
    "unknown.yaml": b"board: 12-A\nboardz: 1\n",
    "badseed.json": b'{"seed": "abc"}',
    "baddeal.yaml": b"deal: {P01: werewolf}\n",
    "badroles.yaml": b"roles: [werewolf, wizard]\n",
}
EXTRA_FILES: dict[str, bytes] = {
    "a.yaml": b"board: 8-arena\n",
    "illegal_script.yaml": b"board: 8-arena\nseed: 1\ndecisions:\n  n1:wolves:P01: P99\n"
    b"  d1:exile_vote:r1: {P01: P42}\n",
    "unknown_model.yaml": b"default: {backend: api, model: m, colour: red}\n",
    "one_contestant.yaml": b"name: t\ncontestants: [{name: a, kind: random}]\n",
    "tournament.yaml": (_TOURNAMENT + "{name: b, kind: heuristic}]\n").encode(),
    "tournament_days.yaml": (
        _TOURNAMENT + "{name: b, kind: heuristic}]\nmax_days: " + str(10**30) + "\n"
    ).encode(),
}
