"""What each encounter mode shows: its main view, its part of the players' screen, its
workspace, its sample and its extras in the GM's window (E16).

The model's side of a mode lives in :mod:`afdesk.encounter.modes`; this is the GUI's.
Each mode with something of its own to show has a folder under ``afdesk/gui`` named as its
model's folder (``afdesk/gui/chase`` beside ``afdesk/encounter/chase``) whose ``__init__``
calls :func:`register` with a :class:`ModeScreens`; :func:`packages` finds them from the
installed modes (:mod:`afdesk.encounter.installed`, the one registration a new mode
adds). The main window (:mod:`afdesk.gui.central`) and the players' window ask
:func:`screens_for` the current mode what to show, and never name a mode. A mode with no
registration (battle) shows the map and the reflex strip.

The entries' factories import their widgets when called, so that registering costs the
start of the app nothing.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from afdesk.encounter.state import Mode  # not at start: the first frame has no model


def packages() -> tuple[str, ...]:
    """The GUI folders of the installed modes (``afdesk.gui.<folder>`` for each folder of
    :data:`afdesk.encounter.installed.FOLDERS` that has one), each registering its
    :class:`ModeScreens` on import. Asked when the modes are first needed, not at start
    (the list of installed modes imports the model)."""
    from afdesk.encounter import installed

    names = (f"{__package__}.{folder}" for folder in installed.FOLDERS)
    return tuple(name for name in names if importlib.util.find_spec(name) is not None)


_FIELDS = (
    "mode",
    "board",
    "make_board",
    "attach",
    "strip",
    "workspace",
    "sample",
    "sample_label",
    "install",
    "docks",
    "check_step",
    "player_install",
)
"""The fields of :class:`ModeScreens`, in the order its constructor takes them."""


class ModeScreens:
    """What one mode shows (see the module): a frozen record, compared field by field. A
    plain class rather than a dataclass: importing ``dataclasses`` and defining this one
    cost the start about 2.5 ms (msgspec is not imported before the first frame)."""

    __slots__ = _FIELDS

    mode: Mode
    board: str
    """The name of the mode's main view ("chase board"), shown instead of the map while
    the encounter is in this mode (the map one click away); "" if the map is the main
    view."""
    make_board: Callable[[Any], QWidget] | None
    """Makes the main view: given the GM's window for the GM's board, None for the
    players' variant (no controls, nothing the players may not see). The widget has
    ``set_document(doc)``."""
    attach: Callable[[QWidget, Any], None] | None
    """Called with the GM's board and the window after each ``set_document`` (the dice)."""
    strip: bool
    """Whether the players' screen shows the reflex strip in this mode."""
    workspace: str
    """The workspace (:mod:`afdesk.gui.layouts`) the mode asks for; "" for Play."""
    sample: str
    """The bundled sample's file name in ``resources/encounters`` ("" for none)."""
    sample_label: str
    """How File > Open sample and the start page name the sample ("Rooftop chase")."""
    install: Callable[[Any], object] | None
    """Adds the mode's extras to the GM's window (map layers, docks): called once the
    window is whole and the encounter shown is first in this mode (or its extras are
    first asked for: ``window.mode_views.extras[mode]``); what it returns is kept there."""
    docks: tuple[str, ...]
    """The object names of the docks ``install`` adds: a saved layout that places one has
    the extras installed as the window is completed, so that the layout places the dock."""
    check_step: Callable[[Any, Any], Any] | None
    """Makes the mode's own panel in the check dialog, before the attack's dice (an
    infiltration's perception against a surprise attack, N7), given the encounter and the
    dice source: a contest ``Panel`` with a ``decided`` signal, ``show_plan(plan)``,
    ``refresh()``, ``plan_after(plan)`` (the plan once decided) and ``op_for(op)`` (the
    Op to push)."""
    player_install: Callable[[Any], Any] | None
    """Adds the mode's extras to the players' window (a layer on the players' map of what
    the table may see); what it returns has ``set_document(doc)`` and is kept on the
    players' window's ``mode_extras``."""

    def __init__(
        self,
        mode: Mode,
        board: str = "",
        make_board: Callable[[Any], QWidget] | None = None,
        attach: Callable[[QWidget, Any], None] | None = None,
        strip: bool = True,
        workspace: str = "",
        sample: str = "",
        sample_label: str = "",
        install: Callable[[Any], object] | None = None,
        docks: tuple[str, ...] = (),
        check_step: Callable[[Any, Any], Any] | None = None,
        player_install: Callable[[Any], Any] | None = None,
    ) -> None:
        for name, value in zip(
            _FIELDS,
            (
                mode,
                board,
                make_board,
                attach,
                strip,
                workspace,
                sample,
                sample_label,
                install,
                docks,
                check_step,
                player_install,
            ),
            strict=True,
        ):
            object.__setattr__(self, name, value)

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in _FIELDS)

    def __eq__(self, other: object) -> bool:
        if type(other) is not ModeScreens:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a ModeScreens is frozen: cannot assign to {name!r}")

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _FIELDS)
        return f"ModeScreens({shown})"


_SCREENS: dict[Mode, ModeScreens] = {}
_loaded = False


def register(screens: ModeScreens) -> ModeScreens:
    """Register what ``screens.mode`` shows; a mode registers once."""
    if screens.mode in _SCREENS and _SCREENS[screens.mode] != screens:
        raise ValueError(f"the {screens.mode.label} mode's screens are registered twice")
    if bool(screens.board) != (screens.make_board is not None):
        raise ValueError(f"the {screens.mode.label} mode names a main view without a maker")
    _SCREENS[screens.mode] = screens
    return screens


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for name in packages():
            importlib.import_module(name)


def screens_for(mode: Mode) -> ModeScreens:
    """What ``mode`` shows (the map and the strip for a mode with no registration)."""
    _load()
    return _SCREENS.get(mode) or ModeScreens(mode)


def registered() -> list[ModeScreens]:
    """Every registered mode's screens, in the order of :class:`Mode`."""
    from afdesk.encounter.state import Mode

    _load()
    return [_SCREENS[m] for m in Mode if m in _SCREENS]


class CatchesUp:
    """A mode's main view that rebuilds only when someone can see it: a change comes while
    the encounter is in its mode or the board shows, else it is noted and the board catches
    up when it shows (a battle's actions do not rebuild a board nobody sees). Mix it in
    before ``QWidget``; the board sets :attr:`own_mode`, has ``doc`` and ``refresh()``, and
    its ``refresh`` clears :attr:`_stale`."""

    own_mode: Any = None
    """The mode whose changes the board shows at once."""
    _stale = False
    """A change came while nobody could see the board."""

    def _changed(self, *_args) -> None:
        doc = self.doc  # type: ignore[attr-defined]
        if doc is None:
            return
        if doc.encounter.mode is self.own_mode or self.isVisible():  # type: ignore[attr-defined]
            self.refresh()  # type: ignore[attr-defined]
        else:
            self._stale = True

    def showEvent(self, event) -> None:
        if self._stale:
            self.refresh()  # type: ignore[attr-defined]
        super().showEvent(event)  # type: ignore[misc]
