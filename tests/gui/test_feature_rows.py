"""What a character can do or be, as the table shows it: every state on its token and in the
Character dock (Fend, Quip, prepared, crouched, down, ...), Momentum markers as counts, and a
snap row made up in the test reaching the menu, the log, the badge, the dock and the contest
(afdesk.encounter.features; E5, E6, E7, E17, P5, R12)."""

from __future__ import annotations

import pytest

from afdesk.encounter import features
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import CheckKind, DefenseKind, assemble
from afdesk.encounter.economy import SnapKind
from afdesk.encounter.ops.damage import DecideHarm
from afdesk.encounter.ops.economy import UseSnap
from afdesk.encounter.ops.reserve import HoldInReserve
from afdesk.encounter.ops.roster import AddMomentum, AddState, AdjustCounter, RemoveMomentum
from afdesk.gui import actions
from afdesk.gui.commands import REGISTRY
from afdesk.gui.map.scene import MapScene
from tests.gui.conftest import character_panel

STEADIED = features.StateRow(
    "steadied",
    "Steadied",
    "E5",
    "STEADY",
    "#455a64",
    "+2 to the next parry until the next turn",
    features.Bonus(2, frozenset({"parry"}), "{name} steadied: +2 on the next parry", consumed=True),
)
STEADY = features.SnapRow(
    "steady",
    "Steady",
    "E5",
    "{who} steadies: +2 to the next parry until the next turn (E5)",
    grants="steadied",
    tip="+2 to the next parry until your next turn",
)


def _table(doc, qtbot):
    panel = character_panel(doc, qtbot)
    doc.select(doc.encounter.actor or doc.encounter.order[0])
    return doc, panel, MapScene(doc)


@pytest.fixture(autouse=True)
def commands_as_they_were():
    """The made-up rows' commands leave the registry with the rows: the Snap menu registers
    a command for a row it meets (gui/commands/character.py:snap_commands), and left behind,
    "snap:steady" failed the command palette's test whenever it ran after this module."""
    before = dict(REGISTRY._commands)
    yield
    REGISTRY._commands.clear()
    REGISTRY._commands.update(before)


@pytest.fixture
def table(playing_doc, qtbot):
    """The sample mid-round, a Character dock and a map scene on it."""
    return _table(playing_doc, qtbot)


def dock_rows(panel) -> list[str]:
    return [r.text.text() for r in panel.states._rows if not r.isHidden()]


def test_a_made_up_snap_row_reaches_menu_log_badge_dock_and_contest(table):
    doc, panel, scene = table
    with features.registered(STEADIED, STEADY):
        actor = doc.encounter.actor
        name = doc.encounter.combatant(actor).name
        entry = next(e for e in actions.entries(doc, actor) if e.key == "snap:steady")
        assert (entry.label, entry.group, entry.enabled) == ("Steady", "Snap", True)
        menu = {a.data(): a for a in panel.economy_menu("snap").actions()}
        assert menu["snap:steady"].text() == "Steady"
        menu["snap:steady"].trigger()  # the dock's Snap menu pushes the row's snap
        assert doc.encounter.log[-1].text == (
            f"{name} steadies: +2 to the next parry until the next turn (E5)"
        )
        assert "STEADY" in scene.tokens[actor].badge_texts()
        turns = doc.encounter.combatant(actor).economy.turns
        assert dock_rows(panel) == [
            f"Steadied: +2 to the next parry until the next turn (E5), until turn {turns + 1}"
        ]
        gao = next(c.id for c in doc.encounter.roster() if c.side != "band" and c.on_map)
        plan = assemble(doc.encounter, gao, CheckKind.HACK, actor)
        for d in plan.defenses:
            steadied = [m for m in d.modifiers if m.key == "steadied"]
            if d.kind.base is DefenseKind.PARRY:  # a parry, or the guard's Counter (E4)
                assert [(m.dice, m.rule) for m in steadied] == [(2, "E5")]
            else:
                assert steadied == []
        assert not any(m.key == "steadied" for m in plan.modifiers)
        again = next(e for e in actions.entries(doc, actor) if e.key == "snap:steady")
        assert not again.enabled and "no snap left" in again.reason  # the model's reason
    assert not any(e.key == "snap:steady" for e in actions.entries(doc, actor))


def test_every_state_shows_on_the_token_and_in_the_dock(table):
    """Fend and Quip were invisible at the table: now they badge and list like the rest."""
    doc, panel, scene = table
    actor = doc.encounter.actor
    assert panel.states.none.isVisible() or dock_rows(panel) == []
    assert doc.push(UseSnap(actor, SnapKind.FEND)) == ""
    assert scene.tokens[actor].badge_texts() == ["FEND"]
    assert dock_rows(panel)[0].startswith("Fending: an extra parry until the next turn (E5)")
    assert panel.states.none.isHidden()
    for kind in StateKind:
        if kind is not StateKind.FENDING:
            assert doc.push(AddState(actor, kind)) == "", kind
    c = doc.encounter.combatant(actor)
    rows = [features.state_row(s.kind) for s in features.shown_states(c)]
    assert {r.kind for r in rows} == set(StateKind)
    token = scene.tokens[actor]
    badges = token.badge_texts()
    for row in rows:
        if row.kind is StateKind.DOWN:  # the plate across the greyed, tilted token (E17)
            assert token.fallen == row.badge
            continue
        assert any(b.split()[0] == row.badge for b in badges), row.kind
    texts = dock_rows(panel)
    assert len(texts) == len(StateKind)
    for row, text in zip(rows, texts, strict=True):
        assert text.startswith(row.label) and f"({row.rule})" in text
    quip = next(t for t in texts if t.startswith("Quipping"))
    assert "an extra retort" in quip


def test_momentum_markers_show_as_one_badge_and_one_row_per_kind(table):
    """R12: a count per kind of marker, not a badge and a row each."""
    doc, panel, scene = table
    actor = doc.encounter.actor
    for dice in (2, 2, -2, 2):
        assert doc.push(AddMomentum(actor, dice, "a shout")) == ""
    assert scene.tokens[actor].badge_texts() == ["+2×3", "-2"]
    assert dock_rows(panel) == [
        "Momentum marker +2 ×3 (R12): on the next check",
        "Momentum marker -2 (R12): on the next check",
    ]
    first = next(r for r in panel.states._rows if not r.isHidden())
    first.remove.click()  # one of the three goes
    assert [m.dice for m in doc.encounter.combatant(actor).momentum] == [2, 2, -2]
    assert scene.tokens[actor].badge_texts() == ["+2×2", "-2"]
    assert doc.push(RemoveMomentum(actor, 2)) == ""
    assert dock_rows(panel) == ["Momentum marker +2 ×2 (R12): on the next check"]
    assert scene.tokens[actor].badge_texts() == ["+2×2"]


def test_out_and_in_reserve_show_in_the_dock_and_on_the_token(table):
    """Where a character stands beside its states: out of the fight in the dock (it has no
    token any more)."""
    doc, panel, scene = table
    enc = doc.encounter
    assert len(scene.tokens) == len([c for c in enc.roster() if c.on_map])
    foe = next(c for c in enc.roster() if c.side == "opponent" and c.on_map)
    doc.select(foe.id)
    assert doc.push(AdjustCounter(foe.id, "hits", foe.grit)) == ""
    assert doc.push(DecideHarm(foe.id, "out")) == ""
    assert dock_rows(panel) == ["Out of the fight: hits reached grit"]
    assert foe.id not in scene.tokens  # off the map: no token to badge


def test_in_reserve_shows_in_the_dock_and_on_the_token(doc, qtbot):
    doc, panel, scene = _table(doc, qtbot)  # setup: reserves are held before play (E2)
    other = next(c for c in doc.encounter.roster() if c.side == "opponent" and c.on_map)
    doc.select(other.id)
    assert doc.push(HoldInReserve((other.id,), "the ridge")) == ""
    assert dock_rows(panel)[0] == "In reserve: held back by the GM, dealt no reflex (E2)"
    assert scene.tokens[other.id].badge_texts()[0] == "RESERVE"
