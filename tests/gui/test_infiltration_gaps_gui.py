"""The infiltration's last rule gaps in the GM's window: the decoy a fumble while hidden
costs, picked on the decisions bar (N4d), moving a hidden character's decoys (N5), the
target's perception against a surprise attack in the check dialog (N7), and the snags seen
at 1280x720 (the facing prompt after leaving, the ticker's words, the dock's Who box, the
decoy labels on the map)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from afdesk.encounter.contest.assembly import CheckKind, assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.state import Mode
from afdesk.gui.main_window import MainWindow
from afdesk.rules.dice import ScriptedSource


@pytest.fixture
def window(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


def _open_sample(w):
    w.mode_views.samples[Mode.INFILTRATION].trigger()
    assert w.doc.encounter.mode is Mode.INFILTRATION
    return w.mode_views.extras[Mode.INFILTRATION]


def test_n4d_a_fumble_while_hidden_asks_on_the_decisions_bar_which_decoy_goes(window):
    _open_sample(window)
    doc = window.doc
    plan = assemble(doc.encounter, "huang", CheckKind.CHECK, facet="sneak")
    flow = ContestFlow(doc.encounter, plan)
    flow.add_gm_modifier("Dark", -2)
    flow.roll_attack(ScriptedSource([1] * plan.dice + [5, 5]))  # a Fumble (R6)
    assert doc.push(flow.op()) == ""
    bar = window.decisions
    (row,) = [r for r in bar.rows if r.decision.kind == "decoy"]
    assert "Huang fumbled while hidden" in row.text.text() and "(N4d)" in row.text.text()
    assert [b.text() for b in row.buttons] == ["Lose (1, 2)", "Lose (3, 2)"]
    assert bar.isVisibleTo(window)
    row.buttons[1].click()
    huang = doc.encounter.combatants["huang"]
    assert huang.hidden and huang.decoys == ((1, 2),)
    assert not [r for r in bar.rows if r.decision.kind == "decoy"]  # decided: gone
    doc.undo_stack.undo()  # one undo step brings the decision back
    assert [r.decision.kind for r in bar.rows] == ["decoy"]
