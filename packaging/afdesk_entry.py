"""The frozen build's entry point (packaging/afdesk.spec): the ``afdesk`` command."""

import sys

from afdesk.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
