"""The frozen build's first runtime hook (packaging/afdesk.spec), run before PyInstaller's
own: its PySide6 hook imports QtCore to write an embedded qt.conf, before afdesk's entry
point runs. afdesk's shortcuts through PySide6's start-up are put in place first, as the
``afdesk`` command of a source install has them: Qt's enums (afdesk.gui.quick_enums) and
shiboken6's support modules read from afdesk's cache (afdesk.gui.quick_shiboken)."""

import afdesk.gui  # noqa: F401  (installs both; imports nothing of Qt)
