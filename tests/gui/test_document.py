"""The document: Ops become undo steps, refusals change nothing, signals follow the model."""

from __future__ import annotations

from afdesk.encounter.economy import ActionKind
from afdesk.encounter.ops.economy import TakeAction
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.roster import AdjustCounter, SetFacing


class Recorder:
    def __init__(self):
        self.lines = []

    def __call__(self, *args):
        self.lines.append(args)


def test_push_is_one_undo_step_and_undo_is_exact(doc, qtbot):
    start = doc.encounter.state()
    with qtbot.waitSignal(doc.combatantChanged) as blocker:
        assert doc.push(AdjustCounter("huang", "hits", 2))
    assert blocker.args == ["huang"]
    assert doc.undo_stack.count() == 1 and doc.is_modified()
    assert doc.undo_stack.undoText() == "Hits of Green-Jade Huang"
    doc.undo_stack.undo()
    assert doc.encounter.state() == start and not doc.is_modified()
    doc.undo_stack.redo()
    assert doc.encounter.combatants["huang"].hits == 2


def test_refused_op_changes_nothing_and_says_why(playing_doc, qtbot):
    doc = playing_doc
    start = doc.encounter.state()
    not_actor = next(cid for cid in doc.encounter.combatants if cid != doc.encounter.actor)
    with qtbot.waitSignal(doc.refused) as blocker:
        assert not doc.push(TakeAction(not_actor, ActionKind.DEFEND))
    assert "turn" in blocker.args[0] and blocker.args[0].endswith(".")
    assert doc.encounter.state() == start and doc.undo_stack.count() == 0


def test_macro_is_all_or_nothing(playing_doc):
    doc = playing_doc
    actor = doc.encounter.actor
    start = doc.encounter.state()
    ok = doc.push_many([SetFacing(actor, 90), TakeAction("nobody", ActionKind.DEFEND)])
    assert not ok and doc.encounter.state() == start


def test_macro_undoes_in_one_step(playing_doc):
    doc = playing_doc
    actor = doc.encounter.actor
    start = doc.encounter.state()
    assert doc.push_many([SetFacing(actor, 90), TakeAction(actor, ActionKind.DEFEND)], "Both")
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert doc.encounter.state() == start


def test_journal_hears_every_do_undo_redo(playing_doc):
    events = []

    class FakeJournal:
        def record_do(self, op):
            events.append(("do", type(op).__name__))

        def record_undo(self):
            events.append(("undo",))

        def record_redo(self):
            events.append(("redo",))

        def rebase(self, file):
            events.append(("rebase", file))

        def close(self, clean):
            events.append(("close", clean))

    from afdesk.gui.document import EncounterDocument

    doc = EncounterDocument(playing_doc.encounter, journal_factory=lambda d: FakeJournal())
    doc.push(NextTurn())
    doc.undo_stack.undo()
    doc.undo_stack.redo()
    doc.close(clean=True)
    assert events == [("do", "NextTurn"), ("undo",), ("redo",), ("close", True)]


def test_modified_mark_follows_the_clean_state(doc, qtbot, tmp_path):
    marks = []
    doc.modifiedChanged.connect(marks.append)
    doc.push(AdjustCounter("huang", "hits", 1))
    doc.mark_saved(tmp_path / "x.afenc", 1)
    assert not doc.is_modified()
    doc.undo_stack.undo()
    assert doc.is_modified()  # the saved file has the hit
    assert marks == [True, False, True]


def test_try_op_reports_without_changing(playing_doc):
    doc = playing_doc
    actor = doc.encounter.actor
    start = doc.encounter.state()
    assert doc.try_op(TakeAction(actor, ActionKind.DEFEND)) == ""
    c = doc.encounter.combatants[actor]
    reason = doc.try_op(MoveCombatant(actor, (c.area, (99, 99)), 0, maneuver=True))
    assert reason and doc.encounter.state() == start


def test_a_failing_journal_warns_but_keeps_the_change(playing_doc, qtbot):
    from afdesk.gui.document import EncounterDocument
    from afdesk.storage import SaveError

    class FullDisk:
        def record_do(self, op):
            raise SaveError("journal", "No space left on device")

    doc = EncounterDocument(playing_doc.encounter, journal_factory=lambda d: FullDisk())
    with qtbot.waitSignal(doc.journalProblem) as blocker:
        assert doc.push(NextTurn())
    assert "No space left" in blocker.args[0] and "Save" in blocker.args[0]
    assert doc.undo_stack.count() == 1


def test_a_bug_in_an_op_is_reported_and_rolled_back(playing_doc, qtbot):
    from afdesk.encounter.ops.roster import AdjustCounter

    doc = playing_doc
    start = doc.encounter.state()

    class Broken(AdjustCounter, frozen=True):
        def execute(self, enc):
            super().execute(enc)
            raise ZeroDivisionError("a bug")

    with qtbot.waitSignal(doc.refused) as blocker:
        assert not doc.push_many([AdjustCounter("huang", "hits", 1), Broken("chen", "hits", 1)])
    assert "Nothing was changed" in blocker.args[0]
    assert doc.encounter.state() == start and doc.undo_stack.count() == 0


def test_every_kind_of_model_event_has_its_signal(doc, qtbot):
    from afdesk.encounter.ops.meta import Rename
    from afdesk.encounter.parts import EventKind

    for kind in EventKind:
        assert hasattr(doc, f"{kind.value}Changed"), kind
    with qtbot.waitSignals([doc.metaChanged, doc.logChanged, doc.changed]):
        doc.push(Rename("Renamed"))
