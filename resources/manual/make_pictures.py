"""Make the manual's pictures from real window grabs (run from the source tree):

    QT_QPA_PLATFORM=offscreen .venv/bin/python resources/manual/make_pictures.py

The screen is a 1280x720 laptop (the offscreen platform's configuration); every picture
is a grab of afdesk's own windows on the river-ford sample, mid-round.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _platform() -> None:
    config = Path(tempfile.mkdtemp()) / "screen.json"
    screen = {"name": "laptop", "x": 0, "y": 0, "width": 1280, "height": 720, "logicalDpi": 96}
    config.write_text(json.dumps({"screens": [screen]}))
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={config}"
    os.environ["AFDESK_DATA_DIR"] = str(config.parent / "data")
    os.environ["XDG_CONFIG_HOME"] = str(config.parent / "config")


def main() -> int:
    _platform()
    from PySide6.QtCore import QCoreApplication, QRect, QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication(sys.argv[:1])
    QCoreApplication.setOrganizationName("afdesk-manual")
    from afdesk.encounter.ops.economy import Screen
    from afdesk.encounter.ops.reflex import deal_hands, play_cards
    from afdesk.encounter.ops.roster import AdjustCounter, PlaceCombatant
    from afdesk.gui.dialogs.character import CharacterDialog
    from afdesk.gui.document import EncounterDocument
    from afdesk.gui.main_window import MainWindow
    from afdesk.gui.mapgeom import area_rect
    from afdesk.gui.player_view import PlayerWindow
    from afdesk.storage import samples

    enc = samples.build()
    enc.apply(deal_hands(enc, random.Random(3)))
    enc.apply(play_cards(enc, rng=random.Random(4)))
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    window = MainWindow(QSettings())
    window.maybe_save = lambda: True
    window.set_document(doc)
    window.resize(1280, 690)
    window.show()

    def settle() -> None:
        for _ in range(5):
            app.processEvents()

    settle()
    window.map.fit_to_zone()
    settle()
    window.grab().save(str(HERE / "window.png"))

    dialog = CharacterDialog(doc, None, window)
    dialog.show()
    settle()
    dialog.grab().save(str(HERE / "add-character.png"))
    dialog.close()

    # An overlap: Bandit 1 steps into Huang's area (E14).
    huang = enc.combatant("huang")
    doc.push(PlaceCombatant("bandit-1", huang.area))
    doc.select("huang")
    settle()
    view = window.map
    x, y, w, h = area_rect(huang.area)
    view.zoom_in()
    view.zoom_in()
    view.centerOn(x + w / 2, y + h / 2)
    settle()
    centre = view.mapFromScene(x + w / 2, y + h / 2)
    crop = QRect(centre.x() - 260, centre.y() - 150, 520, 300)
    view.viewport().grab(crop).save(str(HERE / "overlap.png"))
    view.fit_to_zone()

    # The harm decision: Huang's hits reach her grit.
    doc.push(AdjustCounter("huang", "hits", huang.grit))
    window.combatant_dock.raise_()
    settle()
    window.combatant_dock.grab().save(str(HERE / "harm.png"))

    # Screen (E7): the actor gives up its next action for defenses now.
    actor = enc.actor
    doc.select(actor)
    doc.push(Screen(actor))
    settle()
    window.combatant_dock.grab().save(str(HERE / "screen.png"))

    players = PlayerWindow(doc)
    players.show()
    players.resize(1280, 720)
    settle()
    doc.push(AdjustCounter("bandit-2", "hits", 1))
    doc.push(PlaceCombatant("chen", (8, 10)))
    settle()
    players.grab().save(str(HERE / "players.png"))
    window.close()
    players.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
