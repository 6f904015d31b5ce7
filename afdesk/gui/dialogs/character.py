"""Forms: a character, a new encounter, a state, a Momentum marker, the settings, and the
snap checks (Hustle, Creep) that need dice but no opposition."""

from __future__ import annotations

import random

import msgspec
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.combatant import (
    DEFAULT_FACETS,
    ECONOMY_STATES,
    Combatant,
    Facet,
    Side,
    Speeds,
    StateKind,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.meta import Rename, SetRuleset, SetSettings
from afdesk.encounter.ops.roster import (
    MOMENTUM_MARKERS,
    AddCombatant,
    AddMomentum,
    AddState,
    EditCombatant,
    grit_after_edit,
    new_id,
)
from afdesk.encounter.placing import free_area, next_name
from afdesk.encounter.weapons import format_attacks, parse_attacks
from afdesk.encounter.zone import grid_zone
from afdesk.gui import screens
from afdesk.gui.document import EncounterDocument
from afdesk.gui.errors import show_refusal
from afdesk.rules.rulesets import all_rulesets
from afdesk.storage.tilesets import tilesets


class _Form(QDialog):
    """A dialog that pushes an Op and shows the model's reason if it is refused."""

    def __init__(self, doc: EncounterDocument | None, title: str, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.setWindowTitle(title)
        self.layout_ = QVBoxLayout(self)
        body = QWidget()
        self.form = QFormLayout(body)
        scroll = screens.scrolled(body)  # the form scrolls, OK and Cancel stay in view
        scroll.setObjectName("dialogScroll")
        self.layout_.addWidget(scroll, 1)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020; font-weight: bold;")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._ok)
        self.buttons.rejected.connect(self.reject)

    def finish(self) -> None:
        self.layout_.addWidget(self.error)
        self.layout_.addWidget(self.buttons)
        screens.fit_dialog(self)

    def push(self, *ops) -> bool:
        reason = self.doc.push_many(list(ops))
        show_refusal(self.error, reason)
        return not reason

    def _ok(self) -> None:
        try:
            ops = self.ops()
        except IllegalOp as exc:
            show_refusal(self.error, exc)
            return
        if not ops or self.push(*ops):
            self.accept()

    def ops(self) -> list:
        return []


class CharacterDialog(_Form):
    """Add a character (``cid`` None) or edit one. A new one starts as a copy of
    ``template`` (Duplicate: the next numbered name, the next free area), else on the
    selected character's side and group, in a free area near it."""

    def __init__(
        self,
        doc: EncounterDocument,
        cid: str | None,
        parent=None,
        template: Combatant | None = None,
    ) -> None:
        enc = doc.encounter
        self.old = enc.combatants.get(cid) if cid else None
        title = "Edit character" if self.old else "Add a character"
        if template is not None and self.old is None:
            title = f"Duplicate {template.name}"
        super().__init__(doc, title, parent)
        c = self.old or self._new(enc, template, enc.combatants.get(doc.selected))
        self.start = c
        self.template = template if self.old is None else None
        self.name = QLineEdit(c.name)
        self.side = QComboBox()
        for side in Side:
            self.side.addItem(side.label, side)
        self.side.setCurrentIndex(self.side.findData(c.side))
        self.group = QLineEdit(c.group)
        self.group.setPlaceholderText("reflex group, e.g. Bandits (not for band members)")
        self.form.addRow("&Name", self.name)
        self.form.addRow("&Side", self.side)
        self.form.addRow("&Group", self.group)
        grid = QGridLayout()
        self.facets: dict[str, QSpinBox] = {}
        facets = c.facets if self.old or template is not None else DEFAULT_FACETS
        for i, f in enumerate(facets):
            box = QSpinBox()
            box.setRange(0, 12)
            box.setValue(f.score)
            self.facets[f.name] = box
            grid.addWidget(QLabel(f.name), i // 3, (i % 3) * 2)
            grid.addWidget(box, i // 3, (i % 3) * 2 + 1)
        self.form.addRow("Facets", grid)
        self.speeds = {}
        row = QGridLayout()
        for i, key in enumerate(("run", "climb", "jump", "swim", "fly")):
            box = QSpinBox()
            box.setRange(0, 20)
            box.setValue(getattr(c.speeds, key))
            self.speeds[key] = box
            row.addWidget(QLabel(key), 0, i * 2)
            row.addWidget(box, 0, i * 2 + 1)
        self.form.addRow("Speeds", row)
        self.reach = self._spin(c.reach, 0, 10)
        self.range = self._spin(c.weapon_range, 0, 50)
        self.grit = self._spin(c.grit_max, 0, 50)
        self.shifts = self._spin(c.shifts, 0, 20)
        self.form.addRow("&Reach (areas)", self.reach)
        self.form.addRow("Weapon range (aim)", self.range)
        self.attacks = QPlainTextEdit(format_attacks(c.attacks))
        self.attacks.setPlaceholderText("one per line: name, damage, reach, range (spear, 2, 2, 0)")
        self.attacks.setFixedHeight(60)
        self.form.addRow("Attac&ks", self.attacks)
        self.form.addRow("Grit", self.grit)
        self.form.addRow("Shifts", self.shifts)
        self.notes = QPlainTextEdit(c.notes)
        self.notes.setPlaceholderText("GM-only notes (never on the player view)")
        self.notes.setFixedHeight(70)
        self.form.addRow("GM notes", self.notes)
        self.area = QLineEdit("" if c.area is None else f"{c.area[0]}, {c.area[1]}")
        self.area.setPlaceholderText("column, row (empty: off the map)")
        self.form.addRow("&Area", self.area)
        self.finish()

    @staticmethod
    def _new(enc: Encounter, template: Combatant | None, selected: Combatant | None):
        if template is not None:
            return msgspec.structs.replace(
                template,
                name=next_name(enc, template.name),
                area=free_area(enc, template.area),
                facing=template.facing,
                hits=0,
                grit=template.grit_max,
                states=(),
                momentum=(),
                decoys=(),
                exited="",
                link="",  # a copy is not the campaign character
                days_since_rest=None,
            )
        side = selected.side if selected is not None else Side.OPPONENT
        group = selected.group if selected is not None else ""
        near = selected.area if selected is not None else None
        return Combatant("", "", side, group=group, area=free_area(enc, near))

    @staticmethod
    def _spin(value: int, lo: int, hi: int) -> QSpinBox:
        box = QSpinBox()
        box.setRange(lo, hi)
        box.setValue(value)
        return box

    def _area(self):
        text = self.area.text().strip()
        if not text:
            return None
        try:
            col, row = (int(p) for p in text.replace("(", "").replace(")", "").split(","))
        except ValueError:
            raise IllegalOp(f"the area {text!r} should be two whole numbers: column, row") from None
        return (col, row)

    def ops(self) -> list:
        enc = self.doc.encounter
        name = self.name.text().strip()
        side = self.side.currentData()
        facets = tuple(Facet(k, b.value()) for k, b in self.facets.items())
        speeds = Speeds(**{k: b.value() for k, b in self.speeds.items()})
        fields = {
            "name": name,
            "side": side,
            "group": self.group.text().strip() if side is not Side.BAND else "",
            "facets": facets,
            "speeds": speeds,
            "reach": self.reach.value(),
            "weapon_range": self.range.value(),
            "attacks": parse_attacks(self.attacks.toPlainText()),
            "grit_max": self.grit.value(),
            "shifts": self.shifts.value(),
            "notes": self.notes.toPlainText().strip(),
            "area": self._area(),
        }
        if self.old is not None:
            grit = grit_after_edit(self.old, fields["grit_max"])
            return [EditCombatant(msgspec.structs.replace(self.old, grit=grit, **fields))]
        if not name:
            raise IllegalOp("a character needs a name")
        cid = new_id(enc, name)
        new = Combatant(cid, grit=fields["grit_max"], facing=self.start.facing, **fields)
        if self.template is not None:  # what the form does not show comes along too
            new = msgspec.structs.replace(new, will=self.template.will, d20=self.template.d20)
        return [AddCombatant(new, face_others=True)]  # it faces the other side (E11)


class AddStateDialog(_Form):
    def __init__(self, doc: EncounterDocument, cid: str, parent=None) -> None:
        super().__init__(doc, f"Add a state to {doc.encounter.combatants[cid].name}", parent)
        self.cid = cid
        self.kind = QComboBox()
        for kind in StateKind:
            if kind not in ECONOMY_STATES:
                self.kind.addItem(kind.label, kind)
        self.markers = QSpinBox()
        self.markers.setRange(0, 20)
        self.note = QLineEdit()
        self.form.addRow("&State", self.kind)
        self.form.addRow("&Markers", self.markers)
        self.form.addRow("&Note", self.note)
        hint = QLabel(
            "A state the character already has costs 1 grit instead, unless it takes markers (E17)."
        )
        hint.setWordWrap(True)
        self.layout_.addWidget(hint)
        self.finish()

    def ops(self) -> list:
        return [
            AddState(
                self.cid, self.kind.currentData(), self.markers.value(), self.note.text().strip()
            )
        ]


class MomentumDialog(_Form):
    def __init__(self, doc: EncounterDocument, cid: str, parent=None) -> None:
        super().__init__(doc, f"Momentum marker on {doc.encounter.combatants[cid].name}", parent)
        self.cid = cid
        self.value = QComboBox()
        for dice, meaning in MOMENTUM_MARKERS.items():
            self.value.addItem(f"{dice:+d}: {meaning}", dice)
        self.source = QLineEdit()
        self.source.setPlaceholderText("whose Momentum, e.g. Chen's kick")
        self.form.addRow("&Marker", self.value)
        self.form.addRow("&From", self.source)
        self.finish()

    def ops(self) -> list:
        return [AddMomentum(self.cid, self.value.currentData(), self.source.text().strip())]


class SettingsDialog(_Form):
    def __init__(self, doc: EncounterDocument, parent=None) -> None:
        super().__init__(doc, "Encounter settings", parent)
        enc = doc.encounter
        s = enc.settings
        self.name = QLineEdit(enc.meta.name)
        self.ruleset = QComboBox()
        for r in all_rulesets():
            self.ruleset.addItem(r.name, r.name)
        self.ruleset.setCurrentIndex(self.ruleset.findData(enc.ruleset))
        self.days = QSpinBox()
        self.days.setRange(0, 365)
        self.days.setValue(s.days_since_rest)
        self.low = QCheckBox("Little physical activity (+2 to persevere, E15)")
        self.low.setChecked(s.low_activity)
        self.bad = QComboBox()
        self.bad.addItem("blue (afdesk's default, H2)", "blue")
        self.bad.addItem("green (the Pursuit Die paragraph)", "green")
        self.bad.setCurrentIndex(self.bad.findData(s.bad_pursuit_colour))
        self.form.addRow("&Name", self.name)
        self.form.addRow("&Ruleset", self.ruleset)
        self.form.addRow("&Days since rest", self.days)
        self.form.addRow("", self.low)
        self.form.addRow("&Bad pursuit-die colour", self.bad)
        self.finish()

    def ops(self) -> list:
        enc = self.doc.encounter
        ops = []
        if self.name.text().strip() != enc.meta.name:
            ops.append(Rename(self.name.text()))
        if self.ruleset.currentData() != enc.ruleset:
            ops.append(SetRuleset(self.ruleset.currentData()))
        settings = msgspec.structs.replace(
            enc.settings,
            days_since_rest=self.days.value(),
            low_activity=self.low.isChecked(),
            bad_pursuit_colour=self.bad.currentData(),
        )
        if settings != enc.settings:
            ops.append(SetSettings(settings))
        return ops


class NewEncounterDialog(QDialog):
    """Name, tile set, ruleset: a 3 x 3 zone of tiles drawn from the set."""

    def __init__(self, parent=None, rng: random.Random | None = None) -> None:
        super().__init__(parent)
        self.rng = rng or random.SystemRandom()
        self.setWindowTitle("New encounter")
        layout = QFormLayout(self)
        self.name = QLineEdit("New encounter")
        self.tileset = QComboBox()
        for ts in tilesets().values():
            self.tileset.addItem(ts.name, ts.id)
        self.ruleset = QComboBox()
        for r in all_rulesets():
            self.ruleset.addItem(r.name, r.name)
        layout.addRow("&Name", self.name)
        layout.addRow("&Tile set", self.tileset)
        layout.addRow("&Ruleset", self.ruleset)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addRow(buttons)

    def encounter(self) -> Encounter:
        ts = tilesets()[self.tileset.currentData()]
        layout = [[self.rng.choice(ts.kinds).id for _ in range(3)] for _ in range(3)]
        enc = Encounter(zone=grid_zone(ts, layout))
        enc.apply(Rename(self.name.text().strip() or "New encounter"))
        if self.ruleset.currentData() != enc.ruleset:
            enc.apply(SetRuleset(self.ruleset.currentData()))
        return enc
