"""The encounter model: zone, combatants, reflex, turn economy, movement, contests, modes.

Pure Python, no Qt. Every change is an Op (:mod:`afdesk.encounter.ops`), applied by
:class:`~afdesk.encounter.model.Encounter` (whose parts are declared in
:mod:`afdesk.encounter.parts`) and kept, with its inverse, in the one undo history
(:mod:`afdesk.encounter.history`). The mode of play is an object
(:mod:`afdesk.encounter.modes`); the file's snapshot is :mod:`afdesk.encounter.snapshot`.
"""

import afdesk.msgspec_first  # noqa: F401 - before msgspec is imported (see there)
