"""A FitLabel answers its height for a width as a word-wrapped QLabel does, and lays its
text out once per text and width: Qt asks a switch of the Character dock's page hundreds of
times, and a plain QLabel laid its text out at each ask (most of a GM action when the
character shown holds many states, E3, R12)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPixmap
from PySide6.QtWidgets import QApplication, QFrame, QLabel

from afdesk.gui.fit_label import KEPT, FitLabel
from tests.gui.test_states_box_layout import _piled, shown_panel

TEXTS = (
    "Burning (E3): 1 die of harm at the end of each of its turns until put out",
    "Gao",
    "Blade <b>3</b> · Brawn <b>2</b><br>Speeds: 2/4 · reach 1",
    "",
)
WIDTHS = (30, 90, 160, 400, 1200)


@pytest.fixture
def measures(monkeypatch):
    """How many times a label's text was laid out for a height (QLabel's own answer)."""
    count = [0]
    own = QLabel.heightForWidth

    def counted(label, width):
        count[0] += 1
        return own(label, width)

    monkeypatch.setattr(QLabel, "heightForWidth", counted)
    return count


@pytest.fixture
def hinted(monkeypatch):
    """How many times a label measured its size hints (QLabel's own answer)."""
    count = [0]
    own = QLabel.sizeHint

    def counted(label):
        count[0] += 1
        return own(label)

    monkeypatch.setattr(QLabel, "sizeHint", counted)
    return count


def _same(fit: FitLabel, plain: QLabel) -> None:
    for width in WIDTHS:
        assert fit.heightForWidth(width) == plain.heightForWidth(width), (fit.text(), width)
    assert fit.sizeHint() == plain.sizeHint(), fit.text()
    assert fit.minimumSizeHint() == plain.minimumSizeHint(), fit.text()


def test_a_fit_label_answers_as_a_word_wrapped_qlabel(qtbot):
    fit, plain = FitLabel(), QLabel()
    plain.setWordWrap(True)
    for label in (fit, plain):
        qtbot.addWidget(label)
    assert fit.wordWrap()
    for text in TEXTS:
        fit.setText(text)
        plain.setText(text)
        _same(fit, plain)
    big = QFont(fit.font())
    big.setPointSize(big.pointSize() * 2)
    changes = (
        lambda label: label.setText(TEXTS[0]),  # each change below to a text laid out
        lambda label: label.setFont(big),
        lambda label: label.setStyleSheet("padding: 9px; font-size: 21px;"),
        lambda label: label.setContentsMargins(7, 3, 11, 5),
        lambda label: label.setMargin(6),
        lambda label: label.setIndent(15),
        lambda label: label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft),
        lambda label: label.setMinimumWidth(300),
        lambda label: label.setMinimumWidth(0),
        lambda label: label.setMinimumHeight(90),
        lambda label: label.setMinimumHeight(0),
        lambda label: label.setMaximumWidth(120),
        lambda label: label.setMaximumWidth(16777215),
        lambda label: label.setFrameStyle(QFrame.Shape.Box | QFrame.Shadow.Plain),
        lambda label: label.setLineWidth(4),
        lambda label: label.setFrameStyle(QFrame.Shape.NoFrame),
        lambda label: label.setTextFormat(Qt.TextFormat.PlainText),
        lambda label: label.setTextFormat(Qt.TextFormat.AutoText),
        lambda label: label.setText("&Grit and more words to wrap"),
        lambda label: label.setBuddy(label.window()),  # its mnemonic is measured now
        lambda label: label.setBuddy(None),
        lambda label: label.clear(),
        lambda label: label.setPixmap(QPixmap(40, 90)),  # a picture: no text
        lambda label: label.setText(TEXTS[1]),
        lambda label: label.setNum(1234567),
        lambda label: label.clear(),
        lambda label: label.setText(TEXTS[2]),
    )
    for change in changes:  # each after the heights of the one before were kept
        for label in (fit, plain):
            change(label)
        _same(fit, plain)


def test_a_fit_label_lays_a_text_out_once_for_a_width(qtbot, measures):
    fit = FitLabel(TEXTS[0])
    qtbot.addWidget(fit)
    for _ in range(10):
        fit.heightForWidth(200)
    assert measures[0] == 1
    fit.heightForWidth(120)
    assert measures[0] == 2
    fit.setText(TEXTS[1])
    fit.heightForWidth(200)
    assert measures[0] == 3
    fit.setText(TEXTS[0])  # the text shown before, at a width asked before: kept
    fit.heightForWidth(200)
    fit.heightForWidth(120)
    assert measures[0] == 3
    fit.setStyleSheet("font-size: 30px;")  # another height: measured again
    fit.heightForWidth(200)
    assert measures[0] == 4
    for width in range(KEPT + 1):  # a dock dragged wider: the kept heights stay bounded
        fit.heightForWidth(300 + width)
    assert len(fit._heights) <= KEPT


def test_a_fit_label_measures_its_size_hints_once_for_a_text(qtbot, hinted):
    """A new text costs QLabel three layouts of it for its hints (six for rich text): the
    docks change texts at every turn, back to those of the character whose turn came
    round again."""
    fit = FitLabel(TEXTS[2])
    qtbot.addWidget(fit)
    first = (fit.sizeHint(), fit.minimumSizeHint())
    for _ in range(5):
        assert (fit.sizeHint(), fit.minimumSizeHint()) == first
    assert hinted[0] == 1
    fit.setText(TEXTS[0])
    fit.sizeHint()
    assert hinted[0] == 2
    fit.setText(TEXTS[2])  # the text shown before: kept
    assert (fit.sizeHint(), fit.minimumSizeHint()) == first
    assert hinted[0] == 2
    hint = fit.sizeHint()
    hint.setWidth(1)  # a copy: what the caller does with it is not kept
    assert fit.sizeHint() == first[0]
    fit.setFont(QFont(fit.font().family(), fit.font().pointSize() * 3))  # measured again
    assert fit.sizeHint() != first[0]
    assert hinted[0] == 3
    for n in range(KEPT + 1):  # the kept hints stay bounded
        fit.setText(f"text {n}")
        fit.sizeHint()
    assert len(fit._hints) <= KEPT


def test_the_character_dock_lays_its_texts_out_once(playing_doc, qtbot, measures):
    doc = playing_doc
    panel = shown_panel(doc, qtbot)
    _piled(doc, "gao")
    wrapped = [label for label in panel.findChildren(QLabel) if label.wordWrap()]
    assert wrapped and all(isinstance(label, FitLabel) for label in wrapped)
    for cid in ("lan", "gao", "lan", "gao"):  # each character's texts at each width
        doc.select(cid)  # (Gao's states show the page's scroll bar: a narrower page)
        QApplication.processEvents()
    measures[0] = 0
    for cid in ("lan", "gao", "lan", "gao"):
        doc.select(cid)
        QApplication.processEvents()
        assert panel.states_box.isVisible()
    # every title, facet line and state row was laid out for this width before
    assert measures[0] == 0
