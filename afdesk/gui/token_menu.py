"""The menu a right-click on a token opens: the character's actions from
:func:`afdesk.gui.actions.entries`, in one column that fits beside the token. The first group
(the attacks) and any group of one entry stand in the menu itself, every other group in a
submenu (Checks >, Snaps >, States > ...). Disabled entries carry the model's reason as
tooltip and status tip; Ctrl+K's command palette searches the same commands. The map knows
no command: :func:`install` hands the GM's map view this menu (``MapView.character_menu``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMenu, QWidget

if TYPE_CHECKING:
    from afdesk.gui.actions import Entry

SUBMENUS = {
    "Target": "&Targets",
    "Check": "&Checks",
    "Action": "&Actions",
    "Snap": "&Snaps",
    "Defense": "&Defense",
    "Harm": "&Harm",
    "State": "S&tates",
    "GM": "&GM",
}
"""The titles of the token menu's submenus, by command group."""


def install(view) -> None:
    """Give the GM's map ``view`` its tokens' menus: an entry with an Op pushes it on the
    map (one undo step, refusals said there), one that needs a dialog asks for it
    (``view.actionRequested``); hovering an entry says its reason in the status bar."""
    view.character_menu = partial(_view_menu, view)


def _view_menu(view, cid: str) -> QMenu:
    return token_menu(view, view.doc, cid, partial(_run_entry, view, cid), view.statusMessage.emit)


def _run_entry(view, cid: str, entry: Entry) -> None:
    if entry.op is not None:
        view.push([entry.op])
    else:
        view.actionRequested.emit(cid, entry.key)


def token_menu(
    parent: QWidget,
    doc,
    cid: str,
    run: Callable[[Entry], object],
    hovered: Callable[[str], object],
) -> QMenu:
    """``cid``'s menu: choosing an entry calls ``run(entry)``, hovering one
    ``hovered(reason)`` (the status bar)."""
    from afdesk.gui import actions  # on the first right-click, not at start

    menu = QMenu(parent)
    menu.setToolTipsVisible(True)
    c = doc.encounter.combatants.get(cid)
    if c is not None:
        menu.addSection(c.name)
    groups: dict[str, list[Entry]] = {}
    for entry in actions.entries(doc, cid):
        groups.setdefault(entry.group, []).append(entry)
    for n, (group, entries) in enumerate(groups.items()):
        where = menu
        if n and len(entries) > 1:
            where = menu.addMenu(SUBMENUS.get(group, group))
            where.setToolTipsVisible(True)
        for entry in entries:
            act = where.addAction(entry.label)
            act.setData(entry.key)
            act.setEnabled(entry.enabled)
            if entry.reason:
                act.setToolTip(entry.reason)
                act.setStatusTip(entry.reason)
            act.triggered.connect(lambda _on=False, e=entry: run(e))
            act.hovered.connect(lambda r=entry.reason: hovered(r))
    _leave_first(menu, doc, cid)
    return menu


def _leave_first(menu: QMenu, doc, cid: str) -> None:
    """Held in an overlap (E14), the way out comes first: the move check's entry moves to
    the top, under the name, as the drag's refusal says."""
    from afdesk.encounter import drag

    if not drag.must_leave_overlap(doc.encounter, cid):
        return
    acts = menu.actions()
    leave = None
    holder = menu
    for holder in [menu] + [a.menu() for a in acts if a.menu() is not None]:
        leave = next((a for a in holder.actions() if a.data() == "leave"), None)
        if leave is not None:
            break
    if leave is None or len(acts) < 2:
        return
    holder.removeAction(leave)
    menu.insertAction(acts[1], leave)  # acts[0] is the name's section
