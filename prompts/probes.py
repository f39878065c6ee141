"""The measurement probes a game can ask (docs/evaluation.md, "Probes"): their names, which
are also the step a probe's request names and the key of its wording.

`pre_vote` and `speech_votes` are choice questions worded in `decisions.yaml`; a probe
answered in free form (`role_estimates`) has its own module (`estimates.py`).
"""

from collections.abc import Iterable

from autowerewolf.prompts.estimates import ROLE_ESTIMATES

PRE_VOTE = "pre_vote"  # every voter's intended exile target before the last speech
SPEECH_VOTES = "speech_votes"  # after each discussion speech, the other voters' choices
PROBES = (PRE_VOTE, SPEECH_VOTES, ROLE_ESTIMATES)


class UnknownProbe(ValueError):
    pass


def check_probes(names: Iterable[str]) -> tuple[str, ...]:
    """The probe names, each once, in the order given; an unknown one is an error."""
    chosen = tuple(dict.fromkeys(n.strip() for n in names))
    for name in chosen:
        if name not in PROBES:
            raise UnknownProbe(f"unknown probe {name!r} (known probes: {', '.join(PROBES)})")
    return chosen


def parse_probes(text: str) -> tuple[str, ...]:
    """A comma-separated list, as `--probes` takes it."""
    return check_probes(n for n in text.split(",") if n.strip())
