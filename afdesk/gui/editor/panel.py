"""The zone editor's dock: the edit mode switch, the selected tile's buttons
(turn, mirror, empty, fill with the palette's tile or at random, add and remove rows and
columns, E9), the area brush (segment, add or remove, paint, rectangle or flood fill) with the
segment's properties (E10), and the edges' rules and consequences (E9). Every button is one
Op through the document.

The brush's segment: a name typed for a new one (no autocompletion), or one chosen on
purpose from the "existing segments" list (which shows its properties). What the boxes show
is what a stroke paints (E10): an existing segment is given them in the same undo step, and
a new name after another segment starts from no properties."""

from __future__ import annotations

import random

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.ops.editor import (
    AddTileLine,
    RemoveTileLine,
    SetNamedSegmentProps,
    draw_fill,
    fill_with,
)
from afdesk.encounter.ops.zone import SetEdgeRule
from afdesk.encounter.zone import (
    EMPTY_KIND,
    Edge,
    EdgeRule,
    Property,
    SegmentProps,
    segment_names,
    segment_props,
)
from afdesk.gui.follow import Links
from afdesk.gui.map import selection
from afdesk.gui.map.tools.editor import BRUSH, FLOOD, PAINT, RECT, TILES, EditTool
from afdesk.gui.push import push
from afdesk.gui.style import meaning_style

FLAGS = ("rough", "slippery", "cover", "ledge", "steep", "water")
EDGE_RULES = (
    ("exits", "Exits the encounter"),
    ("extends", "Extends the zone"),
    ("blocked", "Blocked"),
)


def parse_custom(text: str) -> tuple[Property, ...]:
    """GM-defined properties, one a line: "Name: free text" (or just "Name")."""
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        name, _, rest = line.partition(":")
        out.append(Property(name.strip(), rest.strip()))
    return tuple(out)


def custom_text(props: SegmentProps) -> str:
    return "\n".join(f"{p.name}: {p.text}" if p.text else p.name for p in props.custom)


def _row(layout: QVBoxLayout) -> QHBoxLayout:
    row = QHBoxLayout()
    row.setSpacing(4)
    layout.addLayout(row)
    return row


def _narrow(*widgets: QWidget) -> None:
    """Buttons of a row may be narrower than the style's 80 pixels: the dock fits a small
    screen (1280 x 720) beside the map and the palette."""
    for w in widgets:
        w.setMinimumWidth(52)


class ZoneEditorPanel(QWidget):
    """See the module. ``tool`` is the map's :class:`EditTool`; ``set_tool`` switches the
    map between it and the move tool."""

    def __init__(self, view, rng: random.Random | None = None) -> None:
        super().__init__()
        self.view = view
        self.rng = rng
        self._built = False
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        outer.addWidget(scroll)
        body = QWidget()
        scroll.setWidget(body)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        self.edit_box = QCheckBox("&Edit the zone")
        self.edit_box.setToolTip(
            "The map's edit mode (Ctrl+Shift+E): tiles, segments and edges; off: play as usual"
        )
        self.edit_box.toggled.connect(self.set_editing)
        layout.addWidget(self.edit_box)
        modes = QHBoxLayout()
        self.tiles_mode = QRadioButton("&Tiles")
        self.brush_mode = QRadioButton("Area &brush")
        self.tiles_mode.setChecked(True)
        self._mode_group = QButtonGroup(self)
        for b in (self.tiles_mode, self.brush_mode):
            self._mode_group.addButton(b)
            modes.addWidget(b)
            b.toggled.connect(lambda _on: self._sync_tool())
        layout.addLayout(modes)
        layout.addWidget(self._tile_box())
        layout.addWidget(self._brush_box())
        layout.addWidget(self._edge_box())
        self.reason = QLabel()
        self.reason.setWordWrap(True)
        self.reason.setStyleSheet(meaning_style("error", self.reason))
        layout.addWidget(self.reason)
        layout.addStretch(1)
        view.selectionChanged.connect(lambda _s: self._sync_tile())
        self.tool.on_pick = self.choose_segment
        self.doc = None
        self._links = Links()
        self._props_for: str | None = None
        """The segment whose properties the boxes were set from (chosen or painted)."""
        self._built = True

    @property
    def tool(self) -> EditTool:
        return self.view.tool("edit")

    # ------------------------------------------------------------------- building

    def _tile_box(self) -> QGroupBox:
        box = QGroupBox("Tile")
        v = QVBoxLayout(box)
        v.setContentsMargins(4, 4, 4, 4)
        self.tile_label = QLabel()
        self.tile_label.setWordWrap(True)
        v.addWidget(self.tile_label)
        self.turn_buttons = []
        row = _row(v)
        for text, quarters in (("90°", 1), ("180°", 2), ("270°", 3)):
            b = QPushButton(f"↻{text}")
            b.setToolTip(f"Turn the selected tile {text} clockwise (R: 90°, Shift+R: 270°)")
            b.clicked.connect(lambda _c=False, q=quarters: self.turn(q))
            row.addWidget(b)
            self.turn_buttons.append(b)
        row = _row(v)
        self.mirror_button = QPushButton("Mirror")
        self.mirror_button.setToolTip("Mirror the selected tile left to right (M)")
        self.mirror_button.clicked.connect(lambda _c=False: self.turn(0, mirror=True))
        row.addWidget(self.mirror_button)
        self.empty_button = QPushButton("Empty it")
        self.empty_button.setToolTip("Make the selected slot empty again (Delete)")
        self.empty_button.clicked.connect(lambda _c=False: self.empty_slot())
        row.addWidget(self.empty_button)
        # One row each: a tile's name can be long.
        self.fill_with_button = QPushButton()
        self.fill_with_button.setToolTip("Every empty slot gets the tile selected in the palette")
        self.fill_with_button.clicked.connect(lambda _c=False: self.fill_with_selected())
        v.addWidget(self.fill_with_button)
        self.fill_empty_button = QPushButton("Fill empty at random")
        self.fill_empty_button.setToolTip(
            "Every empty slot gets a tile drawn at random from the palette's tiles"
        )
        self.fill_empty_button.clicked.connect(lambda _c=False: self.fill(only_empty=True))
        self.fill_all_button = QPushButton("Refill all at random")
        self.fill_all_button.setToolTip(
            "Every slot, placed or empty, gets a tile drawn at random from the palette's tiles"
        )
        self.fill_all_button.clicked.connect(lambda _c=False: self.fill(only_empty=False))
        v.addWidget(self.fill_empty_button)
        v.addWidget(self.fill_all_button)
        hint = QLabel(
            "Drag a tile from the palette onto a slot; drag one slot onto another to swap."
            " R turns the selected tile, Shift+R back, M mirrors it, Delete empties it."
        )
        hint.setWordWrap(True)
        hint.setStyleSheet(meaning_style("hint", hint))
        v.addWidget(hint)
        self.line_edge = QComboBox()
        self.line_edge.setToolTip("Add or remove a row or column of slots at this edge (E9)")
        for e in Edge:
            self.line_edge.addItem(e.label, e)
        self.add_line_button = QPushButton("+ line")
        self.add_line_button.setToolTip("Add a row or column of empty slots at this edge")
        self.add_line_button.clicked.connect(lambda _c=False: self.add_line())
        self.remove_line_button = QPushButton("− line")
        self.remove_line_button.setToolTip("Remove the row or column of tiles at this edge")
        self.remove_line_button.clicked.connect(lambda _c=False: self.remove_line())
        row = _row(v)
        for w in (self.line_edge, self.add_line_button, self.remove_line_button):
            row.addWidget(w)
        for b in (self.fill_with_button, self.fill_empty_button, self.fill_all_button):
            b.setMinimumWidth(120)  # a long tile name: its tooltip says it whole
        _narrow(
            *self.turn_buttons,
            self.mirror_button,
            self.empty_button,
            self.line_edge,
            self.add_line_button,
            self.remove_line_button,
        )
        self.show_palette_choice()
        return box

    def _brush_box(self) -> QGroupBox:
        box = QGroupBox("Area brush and segment")
        v = QVBoxLayout(box)
        v.setContentsMargins(4, 4, 4, 4)
        self.existing = QComboBox()
        self.existing.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.existing.setMinimumContentsLength(12)  # long names are shown in the list
        self.existing.setToolTip(
            "Choose a segment already in the zone: its properties show below and a stroke "
            "paints more of it"
        )
        self.existing.activated.connect(lambda i: self.choose_segment(self.existing.itemData(i)))
        v.addWidget(self.existing)
        self.segment_name = QLineEdit()
        self.segment_name.setPlaceholderText("a new segment's name, e.g. the river")
        self.segment_name.setToolTip("The segment a stroke paints (type a new name)")
        self.segment_name.textEdited.connect(self._name_edited)
        v.addWidget(self.segment_name)
        self.segment_note = QLabel()
        self.segment_note.setWordWrap(True)
        self.segment_note.setStyleSheet(meaning_style("hint", self.segment_note))
        v.addWidget(self.segment_note)
        row = QHBoxLayout()
        self.add_radio = QRadioButton("Add")
        self.add_radio.setToolTip("A stroke adds its areas to the segment")
        self.remove_radio = QRadioButton("Remove")
        self.remove_radio.setToolTip("A stroke takes its areas out of the segment")
        self.add_radio.setChecked(True)
        self._add_group = QButtonGroup(self)
        for b in (self.add_radio, self.remove_radio):
            self._add_group.addButton(b)
            row.addWidget(b)
            b.toggled.connect(lambda _on: self._sync_tool())
        v.addLayout(row)
        row = QHBoxLayout()
        row.setSpacing(2)
        self.shape_buttons: dict[str, QRadioButton] = {}
        self._shape_group = QButtonGroup(self)
        for key, text, tip in (
            (PAINT, "Paint", "Click or drag over areas"),
            (RECT, "Rect.", "Rectangle: drag a rectangle of areas"),
            (FLOOD, "Flood", "Click: the joined areas of that tile in the same segments (E10)"),
        ):
            b = QRadioButton(text)
            b.setToolTip(tip)
            self.shape_buttons[key] = b
            self._shape_group.addButton(b)
            row.addWidget(b)
            b.toggled.connect(lambda _on: self._sync_tool())
        self.shape_buttons[PAINT].setChecked(True)
        v.addLayout(row)
        grid = QGridLayout()
        self.flag_boxes: dict[str, QCheckBox] = {}
        for i, name in enumerate(FLAGS):
            b = QCheckBox(name.capitalize())
            self.flag_boxes[name] = b
            b.toggled.connect(lambda _on: self._sync_tool())
            grid.addWidget(b, i // 2, i % 2)
        v.addLayout(grid)
        row = QHBoxLayout()
        row.addWidget(QLabel("Altitude:"))
        self.altitude = QSpinBox()
        self.altitude.setRange(-99, 99)
        self.altitude.valueChanged.connect(lambda _v: self._sync_tool())
        row.addWidget(self.altitude)
        row.addStretch(1)
        v.addLayout(row)
        label = QLabel("Your own properties, one a line (Name: what it does):")
        label.setWordWrap(True)
        v.addWidget(label)
        self.custom = QPlainTextEdit()
        self.custom.setPlaceholderText("Thorns: 1 hit on entering")
        self.custom.setFixedHeight(54)
        self.custom.textChanged.connect(self._sync_tool)
        v.addWidget(self.custom)
        self.apply_props_button = QPushButton("Set its &properties")
        self.apply_props_button.setToolTip(
            "Give the segment named above the properties ticked here, everywhere it is"
        )
        self.apply_props_button.clicked.connect(lambda _c=False: self.apply_props())
        v.addWidget(self.apply_props_button)
        return box

    def _edge_box(self) -> QGroupBox:
        box = QGroupBox("Edges")
        grid = QGridLayout(box)
        grid.setContentsMargins(4, 4, 4, 4)
        self.edge_rules: dict[Edge, QComboBox] = {}
        self.edge_notes: dict[Edge, QLineEdit] = {}
        for i, e in enumerate(Edge):
            grid.addWidget(QLabel(e.label), 2 * i, 0)
            rule = QComboBox()
            rule.setMinimumWidth(100)
            for key, text in EDGE_RULES:
                rule.addItem(text, key)
            note = QLineEdit()
            note.setPlaceholderText("consequence, e.g. the road to the camp")
            rule.activated.connect(lambda _i, edge=e: self.set_edge(edge))
            note.editingFinished.connect(lambda edge=e: self.set_edge(edge))
            grid.addWidget(rule, 2 * i, 1)
            grid.addWidget(note, 2 * i + 1, 0, 1, 2)
            self.edge_rules[e] = rule
            self.edge_notes[e] = note
        grid.setColumnStretch(1, 1)
        return box

    # ------------------------------------------------------------------- document

    def set_document(self, doc) -> None:
        self.doc = doc
        self._links.clear()
        self._links.connect(doc.zoneChanged, self.refresh)
        self.refresh()

    def refresh(self) -> None:
        if self.doc is None:
            return
        zone = self.doc.encounter.zone
        name = self.segment_name.text().strip()
        self.existing.blockSignals(True)
        self.existing.clear()
        names = segment_names(zone)
        self.existing.addItem(
            f"Existing segments ({len(names)})…" if names else "No segments yet", ""
        )
        for n in names:
            props = segment_props(zone, n)
            labels = ", ".join(props.labels()) if props else ""
            self.existing.addItem(f"{n} ({labels or 'no properties'})", n)
        self.existing.setCurrentIndex(max(self.existing.findData(name), 0) if name else 0)
        self.existing.blockSignals(False)
        if name and name in names and self._props_for is None:
            self._props_for = name  # painted as a new segment: the boxes are its own now
        for e in Edge:
            rule = zone.edge_rule(e)
            self.edge_rules[e].setCurrentIndex(2 if rule.blocked else 0 if rule.exits else 1)
            if not self.edge_notes[e].hasFocus():
                self.edge_notes[e].setText(rule.note)
        self._sync_tile()
        if self.view.active_tool() is self.tool:
            self.tool.highlight(name)
        self._show_note()

    # -------------------------------------------------------------------- syncing

    def set_editing(self, on: bool) -> None:
        """Switch the map to the edit tool (on) or back to the move tool."""
        if self.edit_box.isChecked() != on:
            self.edit_box.setChecked(on)
            return
        self.view.set_tool("edit" if on else "move")
        self._sync_tool()

    def editing(self) -> bool:
        return self.view.active_tool() is self.tool

    def _sync_tool(self) -> None:
        if not self._built:
            return
        tool = self.tool
        tool.set_mode(BRUSH if self.brush_mode.isChecked() else TILES)
        tool.brush.segment = self.segment_name.text().strip()
        tool.brush.remove = self.remove_radio.isChecked()
        tool.brush.shape = next(k for k, b in self.shape_buttons.items() if b.isChecked())
        tool.brush.props = self.props()
        if self.editing():
            tool.highlight(tool.brush.segment)
        self._show_note()

    def _name_edited(self, text: str) -> None:
        """A name typed: never completed, never loading another segment's properties; a
        new name after another segment starts from no properties (E10)."""
        name = text.strip()
        zone = self.doc.encounter.zone if self.doc else None
        names = segment_names(zone) if zone is not None else []
        self.existing.setCurrentIndex(max(self.existing.findData(name), 0) if name else 0)
        if name not in names and self._props_for is not None and self._props_for != name:
            self._props_for = None
            self.show_props(SegmentProps())
        self._sync_tool()

    def _show_note(self) -> None:
        """Say what a stroke will do with the segment named and the boxes ticked."""
        name = self.segment_name.text().strip()
        has = segment_props(self.doc.encounter.zone, name) if self.doc and name else None
        shown = self.props()
        labels = ", ".join(shown.labels()) or "no properties"
        if not name:
            text = "Choose an existing segment above, or type a new one's name."
        elif has is None:
            text = f"A stroke makes the new segment {name}: {labels}."
        elif has == shown:
            text = f"A stroke paints more of {name}: {labels}."
        else:
            had = ", ".join(has.labels()) or "no properties"
            text = f"{name} is {had} now: a stroke paints more of it and makes it {labels}."
        self.segment_note.setText(text)

    def show_props(self, props: SegmentProps) -> None:
        for name, box in self.flag_boxes.items():
            box.setChecked(getattr(props, name))
        self.altitude.setValue(props.altitude)
        self.custom.setPlainText(custom_text(props))

    def props(self) -> SegmentProps:
        """The properties the boxes show."""
        flags = {name: box.isChecked() for name, box in self.flag_boxes.items()}
        return SegmentProps(
            **flags, altitude=self.altitude.value(), custom=parse_custom(self.custom.toPlainText())
        )

    def _sync_tile(self) -> None:
        slot = self.slot()
        tile = self.doc.encounter.zone.tile_at(*slot) if self.doc and slot else None
        for b in (*self.turn_buttons, self.mirror_button, self.empty_button):
            b.setEnabled(tile is not None)
        if tile is None:
            self.tile_label.setText("Click a slot of the map (edit mode, tiles) to select it.")
        else:
            segs = ", ".join(s.name for s in tile.segments) or "no segments"
            self.tile_label.setText(f"{tile.name} at ({tile.col}, {tile.row}): {segs}")

    def slot(self) -> tuple[int, int] | None:
        sel = self.view.selection()
        return sel.tile if isinstance(sel, selection.Tile) else None

    # -------------------------------------------------------------------- actions

    def _push(self, op) -> bool:
        if self.doc is None:
            return False
        return push(self.doc, op, beside=self._refused)

    def _refused(self, reason: str) -> None:
        """Beside the panel's controls, and on the map ("" clears the panel's line)."""
        self.reason.setText(reason)
        if reason:
            self.view.refuse(reason)

    def turn(self, quarters: int, mirror: bool = False) -> bool:
        slot = self.slot()
        if slot is None:
            self.view.refuse("Select a tile on the map first (zone editor, tiles).")
            return False
        return self.tool.turn(slot, quarters, mirror)

    def empty_slot(self) -> bool:
        slot = self.slot()
        return slot is not None and self.tool.place(slot, EMPTY_KIND)

    def fill(self, *, only_empty: bool, kinds=None) -> bool:
        """Fill the zone's (empty) slots at random from ``kinds`` (default: the palette's)."""
        if kinds is None:
            kinds = self.palette_kinds()
        return self._push_made(
            lambda: draw_fill(self.doc.encounter, kinds, only_empty=only_empty, rng=self.rng)
        )

    def fill_with_selected(self) -> bool:
        """Every empty slot gets the palette's selected tile (E9)."""
        kind = self.palette_choice()
        return self._push_made(lambda: fill_with(self.doc.encounter, kind, only_empty=True))

    def _push_made(self, make) -> bool:
        from afdesk.encounter.errors import IllegalOp

        if self.doc is None:
            return False
        try:
            op = make()
        except IllegalOp as exc:
            self.reason.setText(str(exc))
            self.view.refuse(str(exc))
            return False
        return self._push(op)

    def show_palette_choice(self) -> None:
        """Name the palette's selected tile on the fill button."""
        kind = self.palette_choice()
        usable = kind is not None and kind.id != EMPTY_KIND.id
        name = kind.name if usable else "the selected tile"
        self.fill_with_button.setText(f"Fill empty with {name}")
        self.fill_with_button.setToolTip(f"Every empty slot gets {name} (the palette's choice)")
        self.fill_with_button.setEnabled(usable)

    palette_kinds = staticmethod(lambda: ())
    """The kinds the palette shows (the installer points it at the palette)."""
    palette_choice = staticmethod(lambda: None)
    """The tile kind selected in the palette (the installer points it at the palette)."""

    def add_line(self, edge: Edge | None = None) -> bool:
        return self._push(AddTileLine(edge or self.line_edge.currentData()))

    def remove_line(self, edge: Edge | None = None) -> bool:
        return self._push(RemoveTileLine(edge or self.line_edge.currentData()))

    def apply_props(self) -> bool:
        name = self.segment_name.text().strip()
        if not name:
            self.reason.setText("Choose or name a segment first.")
            return False
        return self._push(SetNamedSegmentProps(name, self.props()))

    def set_edge(self, edge: Edge, kind: str | None = None, note: str | None = None) -> bool:
        """Set ``edge``'s rule ("exits", "extends" or "blocked"; default: the dock's) and
        consequence; nothing if they are as they were."""
        if self.doc is None:
            return False
        if kind is None:
            kind = self.edge_rules[edge].currentData()
        if note is None:
            note = self.edge_notes[edge].text().strip()
        rule = EdgeRule(edge, kind == "exits", note, blocked=kind == "blocked")
        if self.doc.encounter.zone.edge_rule(edge) == rule:
            return False
        return self._push(SetEdgeRule(rule))

    def choose_segment(self, name: str) -> None:
        """Paint into the segment ``name`` from now on: chosen on purpose (the existing
        segments' list, Alt+click), so the boxes show its properties."""
        if not name:  # the list's heading
            return
        self.segment_name.setText(name)
        props = segment_props(self.doc.encounter.zone, name) if self.doc and name else None
        if props is not None:
            self.show_props(props)
            self._props_for = name
        self.existing.setCurrentIndex(max(self.existing.findData(name), 0) if name else 0)
        self._sync_tool()
