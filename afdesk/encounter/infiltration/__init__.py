"""Infiltration mode (E16, N1-N8): its state part, the watch and the decoys seen, its mode
object and its Ops.

:mod:`.state` holds roles, the alarm, objectives and who left (N1, N6, N8); :mod:`.watch`
the pure functions over an encounter (the proposed watch step, N3; decoys seen, N4a);
:mod:`.ops` its Ops; :mod:`.mode` the mode object (registered on import); :mod:`.sample`
the smugglers' warehouse.
"""
