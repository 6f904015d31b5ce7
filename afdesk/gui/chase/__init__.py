"""The chase board: a view of the chase that replaces the map while the
encounter is a chase (the map stays one click away), and its player-view variant."""

from afdesk.encounter import installed  # noqa: F401 - declares the modes (Mode.CHASE, ...)
from afdesk.encounter.state import Mode
from afdesk.gui.layouts import CHASE
from afdesk.gui.modes import ModeScreens, register


def _make_board(window):
    from afdesk.gui.chase.install import make_board

    return make_board(window)


def _attach(board, window) -> None:
    from afdesk.gui.chase.install import attach

    attach(board, window)


def _install(window):
    from afdesk.gui.chase.install import install

    return install(window)


register(
    ModeScreens(
        Mode.CHASE,
        board="chase board",
        make_board=_make_board,
        attach=_attach,
        strip=False,
        workspace=CHASE,
        sample="rooftop-chase.afenc",
        sample_label="Rooftop chase",
        install=_install,
    )
)
