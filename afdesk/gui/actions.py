"""What a GM can do with a character right now, for menus: the character's commands in
the order the menus list them, each enabled or disabled with the model's reason.

The commands themselves (availability and what they do) live in
:mod:`afdesk.gui.commands`; this module only lays them out, so the token context menu and
the Character menu list the same entries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple

from afdesk.encounter.op import Op
from afdesk.gui import commands as cmd
from afdesk.gui.commands.harm import HARM

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMenu

    from afdesk.gui.document import EncounterDocument


class Entry(NamedTuple):
    key: str
    """The command's id in :data:`afdesk.gui.commands.REGISTRY`."""
    label: str
    group: str
    enabled: bool
    reason: str = ""
    op: Op | None = None
    """The Op to push, for entries that need no dialog."""
    command: cmd.Command | None = None


def _layout(doc: EncounterDocument, cid: str) -> Iterator[cmd.Command]:
    """The character's commands in menu order (some only while a state lasts)."""
    yield from cmd.TARGETS
    yield from cmd.CHECKS
    yield cmd.LEAVE
    yield from cmd.action_commands()  # one per action row (afdesk.encounter.features)
    yield from cmd.snap_commands()  # one per snap row (afdesk.encounter.features)
    yield cmd.SCREEN
    yield cmd.HESITATED
    yield cmd.BLEED
    yield from cmd.RESOLVE.values()
    yield from HARM  # hits reach grit: the GM decides
    for st in doc.encounter.combatants[cid].states:
        if st.kind in cmd.REMOVE_STATE:  # every state a file can hold
            yield cmd.REMOVE_STATE[st.kind]
    yield cmd.ADD_STATE
    yield cmd.MOMENTUM
    yield cmd.EDIT
    yield cmd.DUPLICATE
    yield cmd.REMOVE


def entries(doc: EncounterDocument, cid: str) -> list[Entry]:
    """Everything offered for character ``cid`` now, enabled or with the reason why not."""
    if cid not in doc.encounter.combatants:
        return []
    out: list[Entry] = []
    for command in _layout(doc, cid):
        if not command.offered(doc, cid):
            continue
        enabled, reason = command.available(doc, cid)
        op = command.op(doc, cid) if isinstance(command, cmd.OpCommand) else None
        out.append(
            Entry(
                command.id,
                command.text(doc, cid),
                command.group,
                enabled,
                reason,
                op,
                command,
            )
        )
    return out


def fill_menu(
    menu: QMenu,
    doc: EncounterDocument,
    cid: str,
    on_entry: Callable[[Entry], object],
    keep: Callable[[Entry], bool] | None = None,
) -> None:
    """Add ``cid``'s entries (those ``keep(entry)`` accepts) to a QMenu, grouped, disabled
    ones with the model's reason; choosing one calls ``on_entry(entry)``."""
    menu.setToolTipsVisible(True)
    c = doc.encounter.combatants.get(cid)
    if c is not None:
        menu.addSection(c.name)
    group = None
    for entry in entries(doc, cid):
        if keep is not None and not keep(entry):
            continue
        if entry.group != group:
            menu.addSection(entry.group)
            group = entry.group
        act = menu.addAction(entry.label)
        act.setData(entry.key)
        act.setEnabled(entry.enabled)
        if entry.reason:
            act.setToolTip(entry.reason)
            act.setStatusTip(entry.reason)
        act.triggered.connect(lambda _checked=False, e=entry: on_entry(e))
