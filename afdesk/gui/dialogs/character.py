"""Forms: a character (on the one character form), a state, a Momentum marker, the
settings, and the snap checks (Hustle, Creep) that need dice but no opposition."""

from __future__ import annotations

import msgspec
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.combatant import (
    ECONOMY_STATES,
    Combatant,
    Side,
    StateKind,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.meta import Rename, SetRuleset, SetSettings
from afdesk.encounter.ops.roster import (
    AddCombatant,
    AddMomentum,
    AddState,
    EditCombatant,
    grit_after_edit,
    new_id,
)
from afdesk.encounter.placing import free_area, next_name
from afdesk.gui import screens
from afdesk.gui.dialogs.character_form import CharacterForm
from afdesk.gui.document import EncounterDocument
from afdesk.gui.errors import show_refusal
from afdesk.gui.push import push
from afdesk.gui.style import meaning_style
from afdesk.rules.rulesets import all_rulesets, ruleset_named


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
        self.error.setStyleSheet(meaning_style("error", self.error, "font-weight: bold;"))
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
        return push(self.doc, ops, beside=lambda reason: show_refusal(self.error, reason))

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
    """Add a character (``cid`` None) or edit one, on the one character form the roster
    uses too (:class:`~afdesk.gui.dialogs.character_form.CharacterForm`), with the
    encounter's rows: reflex group and area. A new one starts as a copy of ``template``
    (Duplicate: the next numbered name, the next free area), else on the selected
    character's side and group, in a free area near it."""

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
        self.sheet_form = CharacterForm(campaign=False)
        self.group = QLineEdit(c.group)
        self.group.setPlaceholderText("reflex group, e.g. Bandits (not for band members)")
        self.sheet_form.add_row("&Group", self.group)
        self.area = QLineEdit("" if c.area is None else f"{c.area[0]}, {c.area[1]}")
        self.area.setPlaceholderText("column, row (empty: off the map)")
        self.sheet_form.add_last_row("&Area", self.area)
        self.sheet_form.show_sheet(c.sheet())
        self.form.addRow(self.sheet_form)
        f = self.sheet_form  # the form's fields, by the names the GM's controls had
        self.name, self.side, self.facets, self.speeds = f.name, f.side, f.facets, f.speeds
        self.reach, self.range, self.attacks, self.notes = f.reach, f.range, f.attacks, f.notes
        self.grit, self.grit_max, self.shifts = f.grit, f.grit_max, f.shifts
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
                harm_call=0,
            )
        side = selected.side if selected is not None else Side.OPPONENT
        group = selected.group if selected is not None else ""
        near = selected.area if selected is not None else None
        return Combatant("", "", side, group=group, area=free_area(enc, near))

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
        sheet = self.sheet_form.sheet()
        group = self.group.text().strip() if sheet.side is not Side.BAND else ""
        if self.old is not None:
            grit = sheet.grit
            if grit == self.old.grit and sheet.grit_max != self.old.grit_max:
                grit = grit_after_edit(self.old, sheet.grit_max)  # only the most grit changed
            new = self.old.with_sheet(sheet).replace(grit=grit, group=group, area=self._area())
            return [EditCombatant(new)]
        if not sheet.name:
            raise IllegalOp("a character needs a name")
        new = self.start.with_sheet(sheet).replace(
            id=new_id(enc, sheet.name), group=group, area=self._area()
        )
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
        # The ruleset's marker size (R12: +2/-2; af-classic C3: +1/-1).
        for dice, meaning in ruleset_named(doc.encounter.ruleset).momentum_markers.items():
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
