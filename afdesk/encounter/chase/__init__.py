"""Chase mode (E16, H1-H5): the chase's state part and its mode object.

:mod:`.state` holds the chase's data (participants' totals, ways of moving, speeds, this
round's pursuit dice, the pole, the stage's properties, vehicles, countdown); :mod:`.mode`
the :class:`~afdesk.encounter.modes.EncounterMode` that owns it (registered on import).
The Ops are in :mod:`afdesk.encounter.chase.ops`.
"""
