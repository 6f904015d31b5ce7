"""What a contest came to, the same shape for every ruleset."""

import msgspec

from afdesk.rules.d20 import Degree
from afdesk.rules.outcome import Outcome


class Verdict(msgspec.Struct, frozen=True):
    """What a contest came to.

    ``attack`` is the original's outcome before opposition, ``defense`` the opposition's
    (None when there was none or it was not rolled). ``lands``: the original succeeded and
    was not stopped.
    """

    succeeds: bool
    stopped: bool
    attack: Outcome | None = None
    defense: Outcome | None = None
    degree: Degree | None = None

    @property
    def lands(self) -> bool:
        return self.succeeds and not self.stopped

    def explain(self) -> str:
        """ "6 beats 5, stopped", "5 stands against 4", "failed", ..."""
        if self.degree is not None:
            return self.degree.label
        a, d = self.attack, self.defense
        if a is not None and not a.success and self.succeeds and self.stopped:
            return "the opposition removes the last success, stopped"  # C2
        if a is None or not a.success:
            return "Fumble" if a is not None and a.fumble else "failed"
        if d is None:
            return f"{_score(a)}, succeeds"
        if not d.success:
            return f"{_score(a)} against a failed defense, lands"
        if self.stopped and (d.result, d.gain) == (a.result, a.gain):
            return f"{_score(d)} ties {_score(a)}: the higher reflex card wins, stopped (R9)"
        if self.stopped:
            return f"{_score(d)} beats {_score(a)}, stopped"
        return f"{_score(a)} stands against {_score(d)}"


def _score(o: Outcome) -> str:
    return f"{o.result}" + (f"x{o.gain}" if o.gain > 1 else "")
