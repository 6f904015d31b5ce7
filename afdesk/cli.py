"""Command-line dispatch: ``afdesk [FILE]`` (the app), ``afdesk check FILE...``,
``afdesk export-png FILE OUT.png [--player] [--size WxH]``, ``afdesk --self-test``,
``afdesk --help``, ``afdesk --version``.

Nothing here imports Qt: ``--help``, ``--version`` and ``check`` answer without it.
"""

from __future__ import annotations

import argparse
import sys

SUBCOMMANDS = (
    ("check FILE...", "check encounter, campaign, character and tile-set files"),
    ("export-png FILE OUT.png", "render an encounter's map to a PNG (--player, --size WxH)"),
    ("--self-test", "check this installation (Qt plugins, resources, data folder, journal)"),
)
"""What ``afdesk --help`` lists, one line each."""


def _parser_check() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="afdesk check",
        description=(
            "Check encounter, campaign, character and tile-set files; exit 0 if all are fine."
        ),
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


COMMANDS = ("check", "export-png", "help")
"""The words ``afdesk COMMAND`` knows (``help`` prints the help)."""


class UsageError(Exception):
    """A command line afdesk does not understand: said on stderr, exit status 2;
    ``usage``: the usage lines follow (not for a file that is not there)."""

    def __init__(self, message: str, *, usage: bool = True) -> None:
        super().__init__(message)
        self.usage = usage


def app_arguments(argv: list[str]) -> str | None:
    """The window's command line, checked before anything starts: the FILE to open, or
    None. UsageError for an unknown option or command (any option but ``--version``,
    which the app answers; Qt's own options too: the environment sets what they would,
    such as ``QT_QPA_PLATFORM`` and ``QT_STYLE_OVERRIDE``), a second file, or a file that
    does not exist."""
    files: list[str] = []
    for arg in argv:
        if arg == "--version":
            continue  # the app says its version (afdesk.gui.app)
        if arg.startswith("-") and arg != "-":
            raise UsageError(f"unknown option {arg}")
        files.append(arg)
    if len(files) > 1:
        if not _looks_like_a_file(files[0]):
            raise UsageError(_unknown_command(files[0]))
        raise UsageError(f"afdesk opens one file at a time (got {len(files)}: {', '.join(files)})")
    if not files:
        return None
    file = files[0]
    from pathlib import Path

    path = Path(file)
    if path.is_file():
        return file
    if path.exists():
        raise UsageError(f"{file}: not a file (afdesk opens an encounter file)", usage=False)
    if not _looks_like_a_file(file):
        raise UsageError(_unknown_command(file))
    raise UsageError(f"{file}: no such file", usage=False)


def _looks_like_a_file(arg: str) -> bool:
    """A word with no folder and no suffix (``chek``) is taken for a mistyped command."""
    return "/" in arg or "\\" in arg or "." in arg.lstrip(".")


def _unknown_command(word: str) -> str:
    import difflib

    close = difflib.get_close_matches(word, COMMANDS, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown command {word!r}{hint}; the commands are {', '.join(COMMANDS)}"


def usage_error(error: UsageError) -> int:
    """Say ``error`` on stderr (with the usage if it calls for it); exit status 2."""
    usage = "usage: afdesk [FILE] [--version]\n       afdesk COMMAND ...\n"
    sys.stderr.write(
        f"afdesk: {error}\n{usage if error.usage else ''}afdesk --help lists the commands.\n"
    )
    return 2


def run(argv: list[str]) -> int:
    """Dispatch to a tool or start the app; returns the exit status."""
    first = argv[0] if argv else ""
    if first in ("-h", "--help", "help"):
        sys.stdout.write(help_text())
        return 0
    if first == "--version":
        from afdesk import __version__

        print(f"afdesk {__version__}")
        return 0
    if first == "--self-test":
        if not {"-h", "--help"} & set(argv) and _no_display():
            return 2
        from afdesk.gui.selftest import main as self_test_main

        return self_test_main(argv[1:])
    if first == "check":
        from afdesk.storage.check import check_files

        args = _parser_check().parse_args(argv[1:])
        return check_files(args.files, out=sys.stdout)
    if first == "export-png":
        _before_qt()
        from afdesk.gui.export import main as export_main

        return export_main(argv[1:], last=True)  # the process ends with the command
    if "-h" in argv or "--help" in argv:  # afdesk FILE --help
        sys.stdout.write(help_text())
        return 0
    try:
        app_arguments(argv)
    except UsageError as exc:
        return usage_error(exc)
    if _no_display():
        return 2
    import gc

    # Start-up makes tens of thousands of long-lived objects and no garbage worth a
    # cycle collection: the collector waits until the first frame is drawn.
    gc.disable()
    # Nothing of the model before Qt: the window's first frame is drawn with Qt and
    # afdesk.gui's frame alone; the model, the loader and msgspec come with the file,
    # once it is drawn (afdesk.gui.app, tests/gui/test_lazy_imports.py).
    from afdesk.gui.app import main as app_main

    return app_main(argv, collect_after_first_frame=True)


def _no_display() -> bool:
    """True, after saying so and how to run with one, when the window would have no
    display to open on (Qt would abort the process instead)."""
    from afdesk.gui.platform_check import no_display

    message = no_display()
    if message:
        sys.stderr.write(message)
    return bool(message)


def _before_qt() -> None:
    """For ``export-png``: import the model and the file loader before Qt. Once
    ``PySide6.QtCore`` is imported, PySide6 reads the source of every module imported
    after it (its ``__feature__`` import hook looks for the word "PySide6"); msgspec's own
    imports and the pure layers have no use for that. The export then loads its file, also
    before Qt, and the loader imports the Ops the file's log names (no other mode's Ops: a
    picture pushes none). (The app's window notes afdesk's modules and msgspec's for the
    hook instead, :mod:`afdesk.gui.feature_hook`, and imports the model after its first
    frame.)"""
    import afdesk.encounter.model
    import afdesk.encounter.summary
    import afdesk.encounter.visibility  # what the players' map shows
    import afdesk.storage  # noqa: F401
