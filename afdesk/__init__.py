"""afdesk: a desktop encounter manager for the Action Frameworks tabletop RPG.

Layers (shared/DESIGN.md): ``afdesk.rules`` (dice and odds), ``afdesk.encounter`` (the model,
every change an Op), ``afdesk.storage`` (files, journal) are pure Python; ``afdesk.gui`` is the
PySide6 application on top of them.
"""

__version__ = "0.1.0"
