"""The dispute board (P1-P9): a card per platform with its course, proponent, properties,
conventional mark and its support against the reckoning target T (with N and W, so the GM
sees why T is what it is, P6), a card for the neutral audience, every individual's side,
grit, wits and sway (a group as one line with its count, P3), the tension against its
threshold (P7), and how the dispute ended (P9).

``player=True`` is the players' variant: no controls, no denizen's numbers (only the
band's own), nobody hidden. The GM's board carries the controls (:mod:`.controls`); what
waits for the GM's decision (the fumble's tension, a broken dispute's battle or chase at
once, closing at an exchange end: P7, P8) is on the window's decisions bar, above the
board or the map whatever the GM looks at (the dispute mode declares it,
:func:`afdesk.encounter.pending.pending_decisions`).
"""

from __future__ import annotations

from html import escape as _escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.dispute.ops import outcome_text
from afdesk.encounter.dispute.state import AUDIENCE, DisputeState, Entry, Platform
from afdesk.encounter.state import Mode, Phase
from afdesk.gui.follow import Links
from afdesk.gui.modes import CatchesUp
from afdesk.gui.style import meaning_colour

COLUMNS = 3
"""Platform cards to a row (the audience's card comes last)."""
GOOD, ERROR, NOTE = "good", "error", "note"
"""The meaning colours (afdesk.gui.style) the board uses."""


def escape(text: str) -> str:
    """``text`` safe inside rich text (quotes stay as they are: no attribute holds it)."""
    return _escape(text, quote=False)


def _colour(kind: str, widget: QWidget) -> str:
    return meaning_colour(kind, widget.palette()).name()


def stats_text(e: Entry) -> str:
    return f"grit {e.grit} · wits {e.wits} · sway {e.sway}"


class SideCard(QFrame):
    """One platform, or the neutral audience (``platform`` None)."""

    def __init__(self, parent: QWidget | None = None, *, scale: float = 1.0) -> None:
        super().__init__(parent)
        self.big = round(13 * scale)
        """The card's title size in points."""
        self.setObjectName("sideCard")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        box = QVBoxLayout(self)
        box.setContentsMargins(8, 6, 8, 6)
        box.setSpacing(3)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        box.addWidget(self.title)
        self.support = QProgressBar()
        self.support.setTextVisible(True)
        self.support.setMinimumHeight(22)
        box.addWidget(self.support)
        self.people = QLabel()
        self.people.setWordWrap(True)
        self.people.setTextFormat(Qt.TextFormat.RichText)
        self.people.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        box.addWidget(self.people, 1)
        # Minimum, not Maximum: a wrapped title or line needs more than the size hint at a
        # narrow width, and a card capped at its hint cut its last lines off.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.key: object = None

    def show_side(
        self,
        d: DisputeState,
        platform: Platform | None,
        people: list[Entry],
        proponent: str,
        *,
        player: bool,
        leading: bool,
        guard_used: frozenset[str] = frozenset(),
    ) -> None:
        """Fill the card (only when what it shows changed); ``guard_used`` names the
        entries whose character has used its guard (it returns on its turn, E4): a
        retort, its own or for another, spends it (P5)."""
        key = (
            d.target(),
            platform,
            tuple(people),
            proponent,
            player,
            leading,
            d.outcome,
            guard_used & {e.id for e in people},
        )
        if key == self.key:
            return
        self.key = key
        count = sum(e.count for e in people)
        target = d.target()
        won = platform is not None and d.outcome.winner == platform.id
        border = "#2e7d32" if won or leading else ("#8d6e63" if platform is None else "#607d8b")
        back = "#eef7ee" if won else ("#f4f1ec" if platform is None else "#f7f9fb")
        self.setStyleSheet(
            f"#sideCard {{ background: {back}; border: {4 if won else 2}px solid {border};"
            " border-radius: 8px; } #sideCard QLabel { color: #1d1d1d; }"
        )
        if platform is None:
            self.title.setText(
                f"<span style='font-size:{self.big}pt; font-weight:bold'>Neutral audience</span>"
                f" &nbsp;<b>{count}</b> undecided (P3)"
            )
            self.support.setVisible(False)
        else:
            conv = (
                " <span style='background:#455a64; color:white'>&nbsp;CONVENTIONAL&nbsp;</span>"
                if platform.conventional
                else ""
            )
            props = "; ".join(
                escape(p.text) + (f" <b>[{p.dice:+d}]</b>" if p.dice else "")
                for p in platform.properties
            )
            lines = [
                f"<span style='font-size:{self.big}pt; font-weight:bold'>"
                f"{escape(platform.name)}</span>" + conv,
                f"<i>{escape(platform.course or 'no course given')}</i>",
            ]
            if proponent:
                lines.append(f"Put forward by <b>{escape(proponent)}</b>")
            if props:
                lines.append(f"Properties (P2): {props}")
            self.title.setText("<br>".join(lines))
            self.support.setVisible(True)
            self.support.setRange(0, max(target, count, 1))
            self.support.setValue(count)
            self.support.setFormat(f"support {count} of T {target}" + (" — WINS" if won else ""))
            chunk = "#81c784" if count >= target else "#9fbbdc"
            self.support.setStyleSheet(
                "QProgressBar { border: 1px solid #8a8a8a; border-radius: 4px; background:"
                " white; color: #1d1d1d; font-weight: bold; text-align: center; }"
                f" QProgressBar::chunk {{ background: {chunk}; }}"
            )
        rows = []
        for e in people:
            name = escape(e.name) + (f" ×{e.count}" if e.group else "")
            if e.player:
                name = f"<b>{name}</b>"
            numbers = "" if (player and not e.player) else stats_text(e)
            if e.id in guard_used:
                numbers += " · <i>guard used</i>"
            rows.append(
                f"<tr><td>{name}</td><td style='padding-left:10px; color:#444'>{numbers}</td></tr>"
            )
        self.people.setText(
            f"<table>{''.join(rows)}</table>" if rows else "<i>nobody stands here</i>"
        )


class DisputeBoard(CatchesUp, QWidget):
    """The dispute board of a document (see the module)."""

    own_mode = Mode.DISPUTE

    def __init__(self, *, player: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.player = player
        self.scale = 1.35 if player else 1.0
        """The players' board is read across the room: its text is larger."""
        self.doc = None
        self._links = Links()
        self.setObjectName("disputeBoard")
        if player:
            font = self.font()
            font.setPointSizeF(font.pointSizeF() * self.scale)
            self.setFont(font)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 4, 6, 4)
        outer.setSpacing(4)
        self.heading = QLabel()
        self.heading.setStyleSheet(f"font-size: {self._pt(13)}pt; font-weight: bold;")
        self.heading.setWordWrap(True)
        outer.addWidget(self.heading)
        numbers = QHBoxLayout()
        self.reckoning = QLabel()
        self.reckoning.setTextFormat(Qt.TextFormat.RichText)
        self.reckoning.setWordWrap(True)
        self.tension = QLabel()
        self.tension.setTextFormat(Qt.TextFormat.RichText)
        numbers.addWidget(self.reckoning, 1)
        numbers.addWidget(self.tension)
        outer.addLayout(numbers)
        self.banner = QLabel()
        self.banner.setObjectName("disputeOutcome")
        self.banner.setWordWrap(True)
        self.banner.setTextFormat(Qt.TextFormat.RichText)
        outer.addWidget(self.banner)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setTextFormat(Qt.TextFormat.RichText)
        self.hint.setVisible(False)
        outer.addWidget(self.hint)
        inner = QWidget()
        self.grid = QGridLayout(inner)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(6)
        self.grid.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setWidget(inner)
        outer.addWidget(self.scroll, 1)
        self.cards: dict[str, SideCard] = {}
        """The cards by platform id; the audience's under ``"" `` (AUDIENCE)."""
        self._order: list[str] = []
        self.controls: QWidget | None = None
        if not player:
            from afdesk.gui.dispute.controls import DisputeControls

            self.controls = DisputeControls(self)
            self.controls.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
            outer.addWidget(self.controls)

    def _pt(self, size: float) -> int:
        return round(size * self.scale)

    # ------------------------------------------------------------------ document

    def set_document(self, doc) -> None:
        # ``changed`` comes once per Op, after its own signals: the board catches up once
        # (the dispute, the names, the turn, the log's fumbles all come with it).
        self.doc = doc
        self._links.clear()
        self._links.connect(doc.changed, self._changed)
        if self.controls is not None:
            self.controls.set_document(doc)
        self.refresh()

    # ------------------------------------------------------------------ view

    def visible_entries(self, d: DisputeState) -> list[Entry]:
        """Who the board lists: everyone for the GM; for the players nobody hidden."""
        if not self.player or self.doc is None:
            return list(d.entries)
        people = self.doc.encounter.combatants
        return [
            e
            for e in d.entries
            if not (
                e.character in people
                and (people[e.character].hidden or people[e.character].in_reserve)
            )
        ]

    def refresh(self) -> None:
        """Bring the board up to date."""
        if self.doc is None:
            return
        enc = self.doc.encounter
        d: DisputeState = enc.dispute
        t = enc.turn
        when = {
            Phase.SETUP: "setting up",
            Phase.TURNS: f"exchange {t.exchange}, round {t.round}",
            Phase.EXCHANGE_END: f"the end of exchange {t.exchange}",
            Phase.ENDED: "the encounter is over",
        }.get(t.phase, f"exchange {t.exchange}, before round {t.round + 1}")
        actor = enc.combatants.get(enc.actor or "")
        turn = f" — {actor.name}'s turn" if actor is not None and t.phase is Phase.TURNS else ""
        name = enc.meta.name or "Dispute"
        self.heading.setText(f"{name}: dispute, {when}{turn}")
        self._show_numbers(d)
        self._show_banner(d)
        self._show_cards(d)
        if self.controls is not None:
            self._show_hint(d)
            self.controls.refresh()

    def _show_hint(self, d: DisputeState) -> None:
        """The GM's next step while the dispute has fewer than two platforms (a battle
        switched at an exchange end brings everyone into the audience and no platform):
        where platforms are made and people moved onto them (P2, P3)."""
        short = len(d.platforms) < 2 and not d.over
        self.hint.setVisible(short)
        if not short:
            return
        have = "one platform" if d.platforms else "no platform yet"
        blank = bool(d.entries) and all(e.wits == 0 and e.sway == 0 for e in d.entries)
        self.hint.setText(
            f"<b>This dispute has {have}</b>: it starts with two opposed courses of action "
            "(P2). Add them in the <b>Platforms</b> tab below (Alt+R: name, course, "
            "proponent), then put each proponent on theirs in <b>People</b> (Alt+E, P3)."
            + (
                " Everyone has wits 0 and sway 0: set them there too, or T counts no wits "
                "(P6) and every personality can be convinced (P4b)."
                if blank
                else ""
            )
        )
        self.hint.setStyleSheet(
            f"color: {_colour('hint', self)}; border: 2px dashed {_colour('hint', self)};"
            " border-radius: 6px; padding: 4px;"
        )

    def _show_numbers(self, d: DisputeState) -> None:
        n, w, target = d.present(), d.highest_wits(), d.target()
        half = -(-n // 2)
        why = "half of those present" if half >= w else "the highest wits"
        self.reckoning.setText(
            f"<span style='font-size:{self._pt(13)}pt'>Reckoning target "
            f"<b>T = {target}</b></span>"
            f" = max(⌈N/2⌉ = ⌈{n}/2⌉ = {half}, W = {w}): <b>N {n}</b> present, "
            f"highest wits <b>W {w}</b>; T is {why} (P6). "
            f"A platform wins with support ≥ {target} and more than any other."
        )
        broken = d.tension >= d.threshold
        colour = _colour(ERROR if broken else NOTE, self)
        pips = "●" * min(d.tension, 12) + "○" * max(min(d.threshold, 12) - d.tension, 0)
        self.tension.setText(
            f"<span style='font-size:{self._pt(13)}pt; color:{colour}'>Tension <b>{d.tension} / "
            f"{d.threshold}</b> {pips}</span><br><span style='color:{colour}'>"
            f"breaks above {d.threshold} (P7)</span>"
        )

    def _show_banner(self, d: DisputeState) -> None:
        text = outcome_text(d)
        self.banner.setVisible(bool(text))
        if not text:
            return
        kind = ERROR if d.outcome.how == "broken" else GOOD
        colour = _colour(kind, self)
        self.banner.setStyleSheet(
            f"#disputeOutcome {{ border: 3px solid {colour}; border-radius: 6px;"
            f" padding: 4px; font-size: {self._pt(14)}pt; font-weight: bold;"
            f" color: {colour}; }}"
        )
        self.banner.setText(
            escape(text) + f" <span style='font-size:{self._pt(10)}pt; font-weight:normal'>"
            "— persevere afterwards takes +2, a low-activity encounter (E15)</span>"
        )

    def _show_cards(self, d: DisputeState) -> None:
        enc = self.doc.encounter
        people = self.visible_entries(d)
        order = [p.id for p in d.platforms] + [AUDIENCE]
        for key in list(self.cards):
            if key not in order:
                card = self.cards.pop(key)
                self.grid.removeWidget(card)
                card.deleteLater()
        leader = d.leader() if not d.over else None
        used = frozenset(
            e.id
            for e in d.entries
            if not self.player
            and (c := enc.combatants.get(e.character)) is not None
            and c.economy.guards < 1
        )
        for key in order:
            card = self.cards.get(key)
            if card is None:
                card = self.cards[key] = SideCard(scale=self.scale)
            platform = d.platform(key) if key else None
            proponent = ""
            if platform is not None and platform.proponent:
                who = d.entry(platform.proponent) or next(
                    (e for e in d.entries if e.character == platform.proponent), None
                )
                c = enc.combatants.get(platform.proponent)
                proponent = who.name if who else (c.name if c else platform.proponent)
            card.show_side(
                d,
                platform,
                [e for e in people if e.side == key],
                proponent,
                player=self.player,
                leading=leader == key and bool(key),
                guard_used=used,
            )
        if order != self._order:
            for i, key in enumerate(order):
                self.grid.addWidget(self.cards[key], i // COLUMNS, i % COLUMNS)
            for col in range(COLUMNS):
                self.grid.setColumnStretch(col, 1)
            self._order = order


def make_board(window) -> DisputeBoard:
    """The GM's dispute board (``window`` given) or the players' (``window`` None)."""
    board = DisputeBoard(player=window is None)
    if window is not None:
        board.setObjectName("disputeBoardView")
    else:  # the table's: its own light background, whatever the window's style
        board.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        board.setStyleSheet("#disputeBoard { background: #fafafa; }")
    return board
