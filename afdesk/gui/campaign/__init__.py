"""The campaign in the GUI: the Campaign dock, the roster editor, prepare, run,
carry-over and sessions; :mod:`.control` holds the window's open campaign."""
