"""Command-line dispatch: ``afdesk [FILE]`` (the app), ``afdesk check FILE...``,
``afdesk export-png FILE OUT.png [--player] [--size WxH]``, ``afdesk --self-test``,
``afdesk --help``, ``afdesk --version``.

Nothing here imports Qt: ``--help``, ``--version`` and ``check`` answer without it.
"""

from __future__ import annotations

import argparse
import sys

SUBCOMMANDS = (
    ("check FILE...", "check encounter files; exit 0 if all are fine"),
    ("export-png FILE OUT.png", "render an encounter's map to a PNG (--player, --size WxH)"),
    ("--self-test", "check this installation (Qt plugins, resources, data folder, journal)"),
)
"""What ``afdesk --help`` lists, one line each."""


def _parser_check() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="afdesk check",
        description="Check encounter, campaign and character files; exit 0 if all are fine.",
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    return p


def help_text() -> str:
    """``afdesk --help``: how to start the app, then the subcommands, one line each."""
    width = max(len(name) for name, _ in SUBCOMMANDS)
    lines = [
        "usage: afdesk [FILE] [--version]",
        "       afdesk COMMAND ...",
        "",
        "Action Frameworks encounters: open FILE (an .afenc encounter), or recover a crashed",
        "encounter, or the bundled sample.",
        "",
        "commands:",
        *(f"  {name.ljust(width)}  {text}" for name, text in SUBCOMMANDS),
        "",
        "options:",
        f"  {'-h, --help'.ljust(width)}  show this help and exit",
        f"  {'--version'.ljust(width)}  show the version and exit",
        "",
        "afdesk COMMAND --help says more about a command.",
    ]
    return "\n".join(lines) + "\n"


def run(argv: list[str]) -> int:
    """Dispatch to a tool or start the app; returns the exit status."""
    first = argv[0] if argv else ""
    if first in ("-h", "--help"):
        sys.stdout.write(help_text())
        return 0
    if first == "--version":
        from afdesk import __version__

        print(f"afdesk {__version__}")
        return 0
    if first == "--self-test":
        from afdesk.gui.selftest import main as self_test_main

        return self_test_main(argv[1:])
    if first == "check":
        from afdesk.storage.check import check_files

        args = _parser_check().parse_args(argv[1:])
        return check_files(args.files, out=sys.stdout)
    if first == "export-png":
        _before_qt(app=False)
        from afdesk.gui.export import main as export_main

        return export_main(argv[1:], last=True)  # the process ends with the command
    import gc

    # Start-up makes tens of thousands of long-lived objects and no garbage worth a
    # cycle collection: the collector waits until the first frame is drawn.
    gc.disable()
    _before_qt(app=True)
    from afdesk.gui.app import main as app_main

    return app_main(argv, collect_after_first_frame=True)


def _before_qt(*, app: bool) -> None:
    """Import the model and the file loader before Qt. Once ``PySide6.QtCore`` is
    imported, PySide6 reads the source of every module imported after it (its
    ``__feature__`` import hook looks for the word "PySide6"); the pure layers and
    msgspec's own imports have no use for that, and skipping it saves about a tenth of
    the start."""
    import afdesk.encounter.model
    import afdesk.encounter.summary  # the map's headline
    import afdesk.encounter.visibility  # what the players' map shows
    import afdesk.storage
    from afdesk.encounter.ops.registry import registered_ops

    registered_ops()  # every Op module: a file's log names them
    if app:  # the app's map plans drags; it journals the encounter it opens
        import afdesk.encounter.drag
        import afdesk.storage.journal  # noqa: F401
