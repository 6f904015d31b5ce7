"""Dispute mode (E16, P1-P9): the dispute's state part, its mode object and its Ops.

:mod:`.state` holds the dispute's data (platforms, entries on their sides, tension, the
outcome); :mod:`.mode` the :class:`~afdesk.encounter.modes.EncounterMode` that owns it
(registered on import); :mod:`.ops` and :mod:`.convince` its Ops; :mod:`.sample` the
village council.
"""
