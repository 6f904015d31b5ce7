"""Side panels of the main window."""
