"""Command-line dispatch: ``afdesk [FILE]``, ``afdesk check FILE...``,
``afdesk export-png FILE OUT.png [--player] [--size WxH]``."""

from __future__ import annotations

import argparse
import sys


def _parser_check() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="afdesk check",
        description="Check encounter, campaign and character files; exit 0 if all are fine.",
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    return p


def run(argv: list[str]) -> int:
    """Dispatch to a tool or start the app; returns the exit status."""
    if argv and argv[0] == "check":
        from afdesk.storage.check import check_files

        args = _parser_check().parse_args(argv[1:])
        return check_files(args.files, out=sys.stdout)
    if argv and argv[0] == "export-png":
        from afdesk.gui.export import main as export_main

        return export_main(argv[1:])
    from afdesk.gui.app import main as app_main

    return app_main(argv)
