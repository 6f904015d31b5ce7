"""The zone editor's dock: the edit mode switch, the selected tile's buttons
(turn, mirror, empty, fill at random, add and remove rows and columns, E9), the area brush
(segment, add or remove, paint, rectangle or flood fill) with the segment's properties (E10),
and the edges' rules and consequences (E9). Every button is one Op through the document."""

from __future__ import annotations

import contextlib
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

from afdesk.encounter.ops.editor import AddTileLine, RemoveTileLine, SetNamedSegmentProps, draw_fill
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
from afdesk.gui.map import selection
from afdesk.gui.map.tools.editor import BRUSH, FLOOD, PAINT, RECT, TILES, EditTool
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
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer.addWidget(scroll)
        body = QWidget()
        scroll.setWidget(body)
        layout = QVBoxLayout(body)
        self.edit_box = QCheckBox("&Edit the zone (the map's edit mode)")
        self.edit_box.setToolTip("Ctrl+Shift+E: tiles, segments and edges; off: play as usual")
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
        self._built = True

    @property
    def tool(self) -> EditTool:
        return self.view.tool("edit")

    # ------------------------------------------------------------------- building

    def _tile_box(self) -> QGroupBox:
        box = QGroupBox("Tile")
        grid = QGridLayout(box)
        self.tile_label = QLabel()
        self.tile_label.setWordWrap(True)
        grid.addWidget(self.tile_label, 0, 0, 1, 3)
        self.turn_buttons = []
        for i, (text, quarters) in enumerate((("90°", 1), ("180°", 2), ("270°", 3))):
            b = QPushButton(f"↻ {text}")
            b.setToolTip(f"Turn the selected tile {text} clockwise (R: 90°, Shift+R: 270°)")
            b.clicked.connect(lambda _c=False, q=quarters: self.turn(q))
            grid.addWidget(b, 1, i)
            self.turn_buttons.append(b)
        self.mirror_button = QPushButton("Mirror")
        self.mirror_button.setToolTip("Mirror the selected tile left to right (M)")
        self.mirror_button.clicked.connect(lambda _c=False: self.turn(0, mirror=True))
        grid.addWidget(self.mirror_button, 2, 0)
        self.empty_button = QPushButton("Empty it")
        self.empty_button.setToolTip("Make the selected slot empty again (Delete)")
        self.empty_button.clicked.connect(lambda _c=False: self.empty_slot())
        grid.addWidget(self.empty_button, 2, 1)
        self.fill_empty_button = QPushButton("Fill empty")
        self.fill_empty_button.setToolTip("Every empty slot gets a tile of the palette's set")
        self.fill_empty_button.clicked.connect(lambda _c=False: self.fill(only_empty=True))
        self.fill_all_button = QPushButton("Fill all")
        self.fill_all_button.setToolTip("Every slot gets a tile drawn at random")
        self.fill_all_button.clicked.connect(lambda _c=False: self.fill(only_empty=False))
        grid.addWidget(self.fill_empty_button, 3, 0, 1, 2)
        grid.addWidget(self.fill_all_button, 3, 2)
        hint = QLabel(
            "Drag a tile from the palette onto a slot; drag one slot onto another to swap."
        )
        hint.setWordWrap(True)
        hint.setStyleSheet(meaning_style("hint", hint))
        grid.addWidget(hint, 4, 0, 1, 3)
        self.line_edge = QComboBox()
        self.line_edge.setToolTip("Add or remove a row or column of slots at this edge (E9)")
        for e in Edge:
            self.line_edge.addItem(f"{e.label} edge", e)
        self.add_line_button = QPushButton("+ line")
        self.add_line_button.setToolTip("Add a row or column of empty slots at this edge")
        self.add_line_button.clicked.connect(lambda _c=False: self.add_line())
        self.remove_line_button = QPushButton("− line")
        self.remove_line_button.setToolTip("Remove the row or column of tiles at this edge")
        self.remove_line_button.clicked.connect(lambda _c=False: self.remove_line())
        grid.addWidget(self.line_edge, 5, 0)
        grid.addWidget(self.add_line_button, 5, 1)
        grid.addWidget(self.remove_line_button, 5, 2)
        return box

    def _brush_box(self) -> QGroupBox:
        box = QGroupBox("Area brush and segment")
        v = QVBoxLayout(box)
        self.segment_box = QComboBox()
        self.segment_box.setEditable(True)
        self.segment_box.setToolTip("The segment to paint: pick one, or type a new name")
        self.segment_box.lineEdit().setPlaceholderText("segment, e.g. the river")
        self.segment_box.currentTextChanged.connect(self._segment_chosen)
        v.addWidget(self.segment_box)
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
        self.shape_buttons: dict[str, QRadioButton] = {}
        self._shape_group = QButtonGroup(self)
        for key, text, tip in (
            (PAINT, "Paint", "Click or drag over areas"),
            (RECT, "Rectangle", "Drag a rectangle of areas"),
            (FLOOD, "Flood", "Click: every joined area in the same segments"),
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
        self.apply_props_button = QPushButton("Set the segment's &properties")
        self.apply_props_button.clicked.connect(lambda _c=False: self.apply_props())
        v.addWidget(self.apply_props_button)
        return box

    def _edge_box(self) -> QGroupBox:
        box = QGroupBox("Edges")
        grid = QGridLayout(box)
        self.edge_rules: dict[Edge, QComboBox] = {}
        self.edge_notes: dict[Edge, QLineEdit] = {}
        for i, e in enumerate(Edge):
            grid.addWidget(QLabel(e.label), 2 * i, 0)
            rule = QComboBox()
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
        if self.doc is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self.doc.zoneChanged.disconnect(self.refresh)
        self.doc = doc
        doc.zoneChanged.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        if self.doc is None:
            return
        zone = self.doc.encounter.zone
        text = self.segment_box.currentText()
        self.segment_box.blockSignals(True)
        self.segment_box.clear()
        self.segment_box.addItems(segment_names(zone))
        self.segment_box.setEditText(text)
        self.segment_box.blockSignals(False)
        for e in Edge:
            rule = zone.edge_rule(e)
            self.edge_rules[e].setCurrentIndex(2 if rule.blocked else 0 if rule.exits else 1)
            if not self.edge_notes[e].hasFocus():
                self.edge_notes[e].setText(rule.note)
        self._sync_tile()
        if self.view.active_tool() is self.tool:
            self.tool.highlight(self.segment_box.currentText().strip())

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
        tool.brush.segment = self.segment_box.currentText().strip()
        tool.brush.remove = self.remove_radio.isChecked()
        tool.brush.shape = next(k for k, b in self.shape_buttons.items() if b.isChecked())
        tool.brush.props = self.props()
        if self.editing():
            tool.highlight(tool.brush.segment)

    def _segment_chosen(self, name: str) -> None:
        props = segment_props(self.doc.encounter.zone, name.strip()) if self.doc else None
        if props is not None:
            self.show_props(props)
        self._sync_tool()

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
        reason = self.doc.push(op)
        self.reason.setText(reason)
        if reason:
            self.view.refuse(reason)
        return not reason

    def turn(self, quarters: int, mirror: bool = False) -> bool:
        slot = self.slot()
        return slot is not None and self.tool.turn(slot, quarters, mirror)

    def empty_slot(self) -> bool:
        slot = self.slot()
        return slot is not None and self.tool.place(slot, EMPTY_KIND)

    def fill(self, *, only_empty: bool, kinds=None) -> bool:
        """Fill the zone's (empty) slots at random from ``kinds`` (default: the palette's)."""
        from afdesk.encounter.errors import IllegalOp

        if kinds is None:
            kinds = self.palette_kinds()
        try:
            op = draw_fill(self.doc.encounter, kinds, only_empty=only_empty, rng=self.rng)
        except IllegalOp as exc:
            self.reason.setText(str(exc))
            self.view.refuse(str(exc))
            return False
        return self._push(op)

    palette_kinds = staticmethod(lambda: ())
    """The kinds the palette shows (the installer points it at the palette)."""

    def add_line(self, edge: Edge | None = None) -> bool:
        return self._push(AddTileLine(edge or self.line_edge.currentData()))

    def remove_line(self, edge: Edge | None = None) -> bool:
        return self._push(RemoveTileLine(edge or self.line_edge.currentData()))

    def apply_props(self) -> bool:
        name = self.segment_box.currentText().strip()
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
        """Paint into the segment ``name`` (new or existing) from now on."""
        self.segment_box.setEditText(name)
        self._segment_chosen(name)
