"""The installed modes: the one registration a new mode adds (E16).

Each mode lives in its own folder under ``afdesk/encounter`` (``chase/``, ...), whose
``mode.py`` registers the mode when imported: its value, its
:class:`~afdesk.encounter.modes.EncounterMode` object, its part of the encounter (and so
its event kind and its place in files), its numbers' bounds and its Op modules. Importing
this module imports them all; the model, the Op registry
(:mod:`afdesk.encounter.registry`) and the GUI (``afdesk.gui.modes``: the folder
``afdesk/gui/<name>`` of each mode that has one) read :data:`FOLDERS`, and nothing else
names a mode.

The modes are imported by name here, not found on disk: the model reads no files.
Battle is no folder: it is the encounter's own way of playing (:mod:`.modes`).
"""

from afdesk.encounter.chase import mode as chase
from afdesk.encounter.dispute import mode as dispute
from afdesk.encounter.infiltration import mode as infiltration

FOLDERS: tuple[str, ...] = tuple(m.__name__.split(".")[-2] for m in (chase, dispute, infiltration))
"""The installed modes' folders (``"chase"``, ...), in the order listed."""
