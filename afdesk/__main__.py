"""``afdesk`` command: the app, or a command-line tool (``check``, ``export-png``)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run afdesk with ``argv`` (default: the process arguments)."""
    from afdesk.cli import run

    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
