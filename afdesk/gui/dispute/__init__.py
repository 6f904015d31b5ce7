"""The dispute board (P1-P9): the platforms, who stands where, the reckoning target and the
tension, in place of the map while the encounter is a dispute (the map one click away),
and its players' variant."""

from afdesk.encounter import installed  # noqa: F401 - declares the modes (Mode.CHASE, ...)
from afdesk.encounter.state import Mode
from afdesk.gui.modes import ModeScreens, register


def _make_board(window):
    from afdesk.gui.dispute.board import make_board

    return make_board(window)


register(
    ModeScreens(
        Mode.DISPUTE,
        board="dispute board",
        make_board=_make_board,
        strip=True,
        sample="village-council.afenc",
        sample_label="Village council (a dispute)",
    )
)
