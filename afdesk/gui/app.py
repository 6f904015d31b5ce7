"""Start the afdesk application."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication, QMainWindow


def main(argv: list[str]) -> int:
    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    window = QMainWindow()
    window.setWindowTitle("afdesk")
    window.resize(1280, 800)
    window.show()
    return app.exec()
