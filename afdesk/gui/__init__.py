"""The PySide6 application: document, undo commands, map scene, docks, dialogs."""
