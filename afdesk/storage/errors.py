"""The ways storage fails, each with a message a GM can read: what is wrong and where.

All are :class:`afdesk.errors.AfdeskError`; a crash journal that cannot be written is a
:class:`JournalError`, itself a :class:`SaveError` (journaling is saving, in small steps).
"""

from __future__ import annotations

from afdesk.errors import AfdeskError


class LoadError(AfdeskError):
    """An encounter (file, document or crash journal) or a tile set could not be read.

    ``source`` names what was read (a file name), ``detail`` says what is wrong and where,
    for example ``combatants[3].facing: expected a number, got "north"``. ``str(error)``
    is both: ``river-ford.afenc: combatants[3].facing: expected a number, got "north"``.
    """

    def __init__(self, source: str, detail: str) -> None:
        self.source = source
        self.detail = detail
        super().__init__(f"{source}: {detail}" if source else detail)


class SaveError(AfdeskError):
    """An encounter could not be saved; the previous file on disk is unchanged.

    ``target`` names the file, ``detail`` the reason (disk full, no permission, ...).
    """

    def __init__(self, target: str, detail: str) -> None:
        self.target = target
        self.detail = detail
        super().__init__(f"could not save {target}: {detail}" if target else detail)


class FileChangedError(SaveError):
    """The file was changed (or deleted) on disk since the encounter was opened or last
    saved: overwriting it would lose what the other program wrote. The GM chooses:
    overwrite, save elsewhere, or reload the file."""


JOURNAL = "the crash journal"
"""What a :class:`JournalError` names as its target."""


class JournalError(SaveError):
    """The crash journal could not be written (or started): the encounter itself is
    fine, but a crash now would lose the changes since the last save. Reading a damaged
    journal at recovery is a :class:`LoadError` naming the journal file."""

    def __init__(self, detail: str, target: str = JOURNAL) -> None:
        super().__init__(target, detail)
