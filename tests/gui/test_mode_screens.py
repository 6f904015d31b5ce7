"""Open modes in the GUI (E16): a mode's main view, its part of the players' screen and
its sample are one registration (afdesk.gui.modes); the main window and the players'
window ask the mode and never name one, and no module outside the modes' folders and the
one list of installed modes (afdesk.encounter.installed) names a mode."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QLabel

import afdesk
import afdesk.gui
from afdesk.encounter import installed
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.state import Mode
from afdesk.gui import modes
from afdesk.gui.commands.base import REGISTRY
from afdesk.gui.commands.encounter import MODES
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.gui.player_view import PlayerWindow
from afdesk.storage.samples import build
from tests.toy_mode import Cheer, cheers_of, installed_toy

GUI = Path(afdesk.gui.__file__).parent
ROOT = Path(afdesk.__file__).parent


class ToyBoard(QLabel):
    """A main view as a new mode would bring: it only shows the document's name."""

    def __init__(self, window) -> None:
        super().__init__()
        self.player = window is None
        self.doc = None
        self.attached = None

    def set_document(self, doc) -> None:
        self.doc = doc
        self.setText(doc.encounter.meta.name)
        doc.partChanged.connect(self._part_changed)

    def _part_changed(self, name: str) -> None:
        if name == "toy":  # a mode registered after the document class: partChanged
            self.setText(f"Cheers: {cheers_of(self.doc.encounter).count}")


def _attach(board, window) -> None:
    board.attached = window


@pytest.fixture
def toy_mode(monkeypatch):
    """Infiltration (a mode whose folder may register nothing) given a toy board."""
    modes.registered()  # the real registrations first
    toy = modes.ModeScreens(
        Mode.INFILTRATION,
        board="toy board",
        make_board=ToyBoard,
        attach=_attach,
        strip=False,
        sample="smugglers-warehouse.afenc",
        sample_label="Toy sample",
    )
    monkeypatch.setitem(modes._SCREENS, Mode.INFILTRATION, toy)
    return toy


def test_a_registered_board_replaces_the_map_for_gm_and_players(qtbot, tmp_path, doc, toy_mode):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.set_document(doc)
    views = w.mode_views
    assert views.made(Mode.INFILTRATION) is None  # not made while the mode is not on
    assert views.stack.currentWidget() is w.map and not views.toggle.isEnabled()
    players = PlayerWindow(doc)
    qtbot.addWidget(players)
    players.show()
    assert players.strip.isVisibleTo(players)  # battle: the strip

    doc.push(ChangeMode(Mode.INFILTRATION, override=True))
    board = views.made(Mode.INFILTRATION)
    assert isinstance(board, ToyBoard) and views.stack.currentWidget() is board
    assert board.doc is doc and board.attached is w and not board.player
    assert views.toggle.isEnabled()
    views.flip()
    assert views.stack.currentWidget() is w.map  # the map one click away
    views.flip()
    assert views.stack.currentWidget() is board
    table = players.board(Mode.INFILTRATION)
    assert table.player and players.stack.currentWidget() is table
    assert not players.strip.isVisibleTo(players)  # the mode shows no strip

    doc.undo_stack.undo()  # back to battle: the map again, on both screens
    assert views.stack.currentWidget() is w.map and players.stack.currentWidget() is players.view
    assert "Open sample: Toy sample" in [a.text() for a in views.samples.values()]


def test_a_mode_without_a_board_cannot_be_asked_for_one(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    with pytest.raises(ValueError, match="Battle mode has no board"):
        w.mode_views.board(Mode.BATTLE)
    with pytest.raises(ValueError, match="without a maker"):
        modes.register(modes.ModeScreens(Mode.BATTLE, board="a board"))


@pytest.mark.parametrize("name", ["main_window.py", "player_view.py", "central.py"])
def test_the_window_and_the_players_view_name_no_mode(name):
    text = (GUI / name).read_text(encoding="utf-8")
    named = re.findall(r"Mode\.(BATTLE|CHASE|DISPUTE|INFILTRATION)|\bchase\b", text, re.I)
    assert not named, f"{name} names a mode: {named}"


def test_a_new_mode_registered_by_a_test_shows_its_board(qtbot, tmp_path, monkeypatch, request):
    """A mode made entirely here (tests/toy_mode.py: its part and its Op; its board above)
    is played, shown and undone by the window and the players' window (E16)."""
    modes.registered()  # the real registrations first
    monkeypatch.setattr(REGISTRY, "_commands", dict(REGISTRY._commands))  # mode:toy, for now
    with installed_toy() as toy:
        request.addfinalizer(lambda: MODES.pop(toy, None))
        assert MODES[toy].label == "Toy" and "mode:toy" in REGISTRY  # made when first asked
        monkeypatch.setitem(
            modes._SCREENS,
            toy,
            modes.ModeScreens(toy, board="toy board", make_board=ToyBoard, strip=False),
        )
        doc = EncounterDocument(build(), journal_factory=lambda d: None)
        w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
        qtbot.addWidget(w)
        w.set_document(doc)
        players = PlayerWindow(doc)
        qtbot.addWidget(players)
        players.show()
        assert doc.push(ChangeMode(toy, override=True)) == ""
        board = w.mode_views.made(toy)
        assert isinstance(board, ToyBoard) and w.mode_views.stack.currentWidget() is board
        assert players.stack.currentWidget() is players.board(toy)
        assert not players.strip.isVisibleTo(players)
        assert doc.push(Cheer("Huang")) == ""
        assert board.text() == "Cheers: 1"
        assert doc.encounter.log[-1].text == "Huang cheers"
        doc.undo_stack.undo()
        assert board.text() == "Cheers: 0"
        doc.undo_stack.undo()  # battle again: the map on both screens
        assert w.mode_views.stack.currentWidget() is w.map
        assert players.stack.currentWidget() is players.view


def _mode_words() -> re.Pattern[str]:
    names = {*installed.FOLDERS, *(m.value for m in Mode if str(m) != "battle")}
    return re.compile(r"\b(" + "|".join(sorted(names)) + r")\b", re.I)


def mode_names(source: str) -> list[str]:
    """Where ``source`` names an installed mode: a string holding its name (docstrings
    aside), ``Mode.CHASE``, an attribute or a name that is a mode's, an import of a mode's
    folder."""
    words = _mode_words()
    tree = ast.parse(source)
    docs = {
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs and words.search(node.value):
                found.append(f"line {node.lineno}: the string {node.value[:50]!r}")
        elif isinstance(node, ast.Attribute) and words.fullmatch(node.attr):
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Name) and words.fullmatch(node.id):
            found.append(f"line {node.lineno}: {node.id}")
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names = [a.name for a in node.names]
            if isinstance(node, ast.ImportFrom):
                names.append(node.module or "")
            found += [f"line {node.lineno}: imports {n}" for n in names if words.search(n)]
    return found


ALLOWED = {
    "encounter/installed.py": "the one list of installed modes",
    "encounter/samples": "the bundled encounters, built through the modes' own Ops",
    "paths.py": "where the bundled chase sample lives",
    "gui/layouts.py": "the chase workspace (a workspace is an extension point of its own)",
}
"""What may name a mode beside the modes' own folders, and why."""


def _named_outside_the_modes() -> list[str]:
    bad = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        parts = rel.split("/")
        if parts[0] == "rules":  # the game's rules, by the rules pages' names
            continue
        if parts[0] in ("encounter", "gui") and len(parts) > 2 and parts[1] in installed.FOLDERS:
            continue  # a mode's own folder
        if any(rel == a or rel.startswith(a + "/") for a in ALLOWED):
            continue
        bad += [f"afdesk/{rel} {o}" for o in mode_names(path.read_text(encoding="utf-8"))]
    return bad


def test_no_module_outside_the_modes_folders_and_the_one_list_names_a_mode():
    bad = _named_outside_the_modes()
    assert not bad, "ask the mode (or its registration) instead of naming it:\n" + "\n".join(bad)


@pytest.mark.parametrize(
    "source",
    [
        "if enc.mode is Mode.DISPUTE:\n    pass\n",
        "from afdesk.encounter.chase.state import chase_of\n",
        'kind = "infiltration"\n',
        "x = state.chase\n",
    ],
)
def test_the_check_finds_a_mode_named(source):
    assert mode_names(source)


def test_a_docstring_or_a_mode_of_a_test_may_be_named():
    assert not mode_names('def f():\n    """In a chase, H3."""\n    return Mode.TOY\n')
