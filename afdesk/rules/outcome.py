"""The outcome of a check, the same shape for af-2.5.4 and af-classic."""

import msgspec


class Outcome(msgspec.Struct, frozen=True):
    """What a check came to after Interference.

    ``wins`` are the check Wins left, ascending. ``success_margin`` and ``failure_margin``
    follow R13: Gain on a success; 1 + unspent Interference Wins on a failure.
    """

    success: bool
    result: int | None
    gain: int
    momentum: int
    fumble: bool
    wins: tuple[int, ...]
    success_margin: int
    failure_margin: int
    unspent: int = 0
    """Interference Wins left when the check ran out of Wins (R6)."""
    ventures: int = 0

    def describe(self) -> str:
        """A short plain-words summary: "5 (Gain 2), 1 Momentum" or "Fumble"."""
        if not self.success:
            return "Fumble" if self.fumble else "failed"
        text = f"{self.result}" + (f" (Gain {self.gain})" if self.gain > 1 else "")
        if self.momentum:
            text += f", {self.momentum} Momentum"
        return text
