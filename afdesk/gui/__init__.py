"""The PySide6 application: document, undo commands, map scene, docks, dialogs.

Qt's enums are built by :mod:`afdesk.gui.quick_enums` from here on, before any Qt module
is imported (the same classes, at a third of the cost of the window's start)."""

from afdesk.gui import quick_enums

quick_enums.install()
