"""The PySide6 application: document, undo commands, map scene, docks, dialogs.

From here on, before any Qt module is imported: Qt's enums are built by
:mod:`afdesk.gui.quick_enums` (the same classes, at a third of the cost of the window's
start), and PySide6's runtime, shiboken6, is imported by :mod:`afdesk.gui.quick_shiboken`
when first asked for (its support modules' code read from afdesk's cache folder)."""

from afdesk.gui import quick_enums, quick_shiboken


def _cache_file():
    from afdesk.paths import cache_dir

    return quick_shiboken.cache_file(cache_dir())


quick_enums.install()
quick_shiboken.install(_cache_file)
