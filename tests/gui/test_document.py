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
        assert doc.push(AdjustCounter("huang", "hits", 2)) == ""
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
    reason = doc.push(TakeAction(not_actor, ActionKind.DEFEND))
    assert "turn" in reason and reason.endswith(".")
    assert not hasattr(doc, "refused"), "a refusal goes to whoever pushed, not to every view"
    assert doc.encounter.state() == start and doc.undo_stack.count() == 0


def test_macro_is_all_or_nothing(playing_doc):
    doc = playing_doc
    actor = doc.encounter.actor
    start = doc.encounter.state()
    reason = doc.push_many([SetFacing(actor, 90), TakeAction("nobody", ActionKind.DEFEND)])
    assert reason and doc.encounter.state() == start


def test_macro_undoes_in_one_step(playing_doc):
    doc = playing_doc
    actor = doc.encounter.actor
    start = doc.encounter.state()
    assert doc.push_many([SetFacing(actor, 90), TakeAction(actor, ActionKind.DEFEND)], "Both") == ""
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert doc.encounter.state() == start


def test_journal_hears_every_do_undo_redo(playing_doc):
    events = []

    class FakeJournal:
        def record(self, event):
            events.append((event.change.value, *(type(op).__name__ for op in event.step.ops)))

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
    assert events == [
        ("do", "NextTurn"),
        ("undo", "NextTurn"),
        ("redo", "NextTurn"),
        ("close", True),
    ]


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
        def record(self, event):
            raise SaveError("journal", "No space left on device")

    doc = EncounterDocument(playing_doc.encounter, journal_factory=lambda d: FullDisk())
    with qtbot.waitSignal(doc.journalProblem) as blocker:
        assert doc.push(NextTurn()) == ""
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

    reason = doc.push_many([AdjustCounter("huang", "hits", 1), Broken("chen", "hits", 1)])
    assert "Nothing was changed" in reason
    assert doc.encounter.state() == start and doc.undo_stack.count() == 0


def test_every_kind_of_model_event_has_its_signal(doc, qtbot):
    from afdesk.encounter.ops.meta import Rename
    from afdesk.encounter.parts import EventKind

    for kind in EventKind:
        assert hasattr(doc, f"{kind.value}Changed"), kind
    with qtbot.waitSignals([doc.metaChanged, doc.logChanged, doc.changed]):
        doc.push(Rename("Renamed"))


def test_steps_with_one_merge_key_are_one_undo_command(doc, tmp_path):
    """A burst of key presses turning a character: one undo step, one log line; never merged
    into the step the file was saved at."""
    start = doc.encounter.state()
    lines = len(doc.encounter.log)
    for facing in (15.0, 30.0, 45.0):
        assert doc.push(SetFacing("huang", facing), merge_key="turn:huang") == ""
    assert doc.undo_stack.count() == 1 and doc.history.index == 1
    assert len(doc.encounter.log) == lines + 1
    assert doc.undo_stack.undoText() == doc.history.undo_text()
    doc.undo()
    assert doc.encounter.state() == start
    doc.redo()
    assert doc.encounter.combatants["huang"].facing == 45.0
    doc.mark_saved(tmp_path / "x.afenc", 1)
    assert doc.push(SetFacing("huang", 60.0), merge_key="turn:huang") == ""
    assert doc.undo_stack.count() == 2 and doc.history.index == 2
    assert doc.push(SetFacing("huang", 75.0), merge_key="turn:huang") == ""
    assert doc.undo_stack.count() == 2 and doc.is_modified()
    doc.undo()
    assert not doc.is_modified()


def test_the_undo_view_and_the_history_move_together(playing_doc):
    from afdesk.encounter.ops.meta import Rename

    doc = playing_doc
    for name in ("One", "Two", "Three"):
        doc.push(Rename(name))
    doc.undo_stack.setIndex(1)  # a click in the undo history dock
    assert doc.history.index == 1 and doc.encounter.meta.name == "One"
    doc.undo_stack.setIndex(3)
    assert doc.history.index == 3 and doc.encounter.meta.name == "Three"


def test_the_real_journal_recovers_what_the_document_did(playing_doc, tmp_path, monkeypatch):
    from afdesk.gui.document import EncounterDocument, _default_journal
    from afdesk.storage.journal import pending_journals, recover

    monkeypatch.setenv("AFDESK_DATA_DIR", str(tmp_path / "data"))
    enc = playing_doc.encounter
    playing_doc.close(clean=True)
    doc = EncounterDocument(enc, journal_factory=_default_journal)
    actor = enc.actor
    doc.push(AdjustCounter("huang", "hits", 1))
    for facing in (15.0, 30.0):
        doc.push(SetFacing(actor, facing), merge_key="turn")
    doc.push_many([SetFacing(actor, 90), TakeAction(actor, ActionKind.DEFEND)], "Both")
    doc.undo()
    doc.undo()
    doc.redo()
    doc.close(clean=False)
    (pending,) = pending_journals()
    assert recover(pending) == enc.state()


def test_a_dropped_document_and_its_map_are_collected_without_a_crash():
    """A document with an undo step and a map scene that follows it, dropped together and
    freed by the garbage collector in one go: the process must survive (it died with a
    segfault in QUndoStack::clear). In a subprocess, so a crash fails this test only."""
    import subprocess
    import sys
    import textwrap
    from pathlib import Path

    code = textwrap.dedent(
        """
        import gc, os
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from afdesk.encounter.ops.roster import PlaceCombatant
        from afdesk.gui.document import EncounterDocument
        from afdesk.gui.map.scene import MapScene
        from afdesk.storage.samples import build
        for _ in range(3):
            doc = EncounterDocument(build(), journal_factory=lambda d: None)
            scene = MapScene(doc)
            assert doc.push(PlaceCombatant("huang", (6, 7))) == ""
            doc.undo_stack.undo()
            assert doc.push(PlaceCombatant("huang", (6, 8))) == ""
            del doc, scene
            gc.collect()
        print("collected")
        """
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=120
    )
    assert out.returncode == 0 and "collected" in out.stdout, out.stderr[-2000:]
