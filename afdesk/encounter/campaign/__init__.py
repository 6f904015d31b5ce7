"""The campaign: the band, recurring characters and a bestiary that live across
encounters, and a session's encounters in one place. Pure Python like the rest of the model;
the file ``campaign.afcamp`` is :mod:`afdesk.storage.campaign`.

- :mod:`.roster`: roster characters (band, recurring, bestiary templates) with stable ids;
- :mod:`.state`: the campaign as immutable data, with its encounters;
- :mod:`.edits` and :mod:`.history`: every change is an edit, undoable;
- :mod:`.build`: links, numbered copies, and the running copy of a prepared encounter;
- :mod:`.carry`: carry-over after an encounter (E15, E17, R10);
- :mod:`.merge`: importing characters, merged by name; a same-name entry that differs is
  updated, skipped or kept beside the incoming one as the GM chooses, per entry.
"""
