"""The zone editor: the tile palette, the editor's dock (tiles, the area brush,
segment properties, edges) and their installation in the main window."""
