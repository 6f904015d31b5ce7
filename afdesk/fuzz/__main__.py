"""``python -m afdesk.fuzz``: the long fuzz run (README, Development)."""

import sys

from afdesk.fuzz import main

sys.exit(main())
