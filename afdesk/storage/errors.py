"""The two ways storage fails, each with a message a GM can read: what is wrong and where."""

from __future__ import annotations


class LoadError(Exception):
    """An encounter (file, document or crash journal) could not be read.

    ``source`` names what was read (a file name), ``detail`` says what is wrong and where,
    for example ``combatants[3].facing: expected a number, got "north"``. ``str(error)``
    is both: ``river-ford.afenc: combatants[3].facing: expected a number, got "north"``.
    """

    def __init__(self, source: str, detail: str) -> None:
        self.source = source
        self.detail = detail
        super().__init__(f"{source}: {detail}" if source else detail)


class SaveError(Exception):
    """An encounter could not be saved; the previous file on disk is unchanged.

    ``target`` names the file, ``detail`` the reason (disk full, no permission, ...).
    """

    def __init__(self, target: str, detail: str) -> None:
        self.target = target
        self.detail = detail
        super().__init__(f"could not save {target}: {detail}" if target else detail)
