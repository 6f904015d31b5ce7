"""The PySide6 application: document, undo commands, map scene, docks, dialogs.

From here on, before any Qt module is imported: Qt's enums are built by
:mod:`afdesk.gui.quick_enums` (the same classes, at a third of the cost of the window's
start), and PySide6's runtime, shiboken6, is imported by :mod:`afdesk.gui.quick_shiboken`
when first asked for (its support modules' code read from a cache: :func:`_cache_files`)."""

from afdesk.gui import quick_enums, quick_shiboken


def _cache_files():
    """Where shiboken's support modules' code is kept: beside afdesk's own compiled modules
    (``afdesk/gui/__pycache__``, as Python keeps them: every user and data folder of this
    installation shares it), else, where the installation cannot be written (installed
    for the whole system), in the user's cache folder."""
    from pathlib import Path

    places = [quick_shiboken.cache_file(Path(__file__).parent / "__pycache__")]
    try:
        from afdesk.paths import cache_dir

        places.append(quick_shiboken.cache_file(cache_dir()))
    except Exception:  # no home to find a user's cache folder in: the first place only
        pass
    return places


quick_enums.install()
quick_shiboken.install(_cache_files)
