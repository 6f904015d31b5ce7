"""The session recap: one self-contained HTML page of an encounter as it was played.

The page holds the encounter's log by exchange and round, a picture of the map at the start
of each round (PNG bytes the caller renders, inlined as ``data:`` URIs: no other file), each
check with its dice, modifiers and outcome (R1-R3, R9), and who was down (E17), out, captured
or escaped at the end. With ``players=True`` it leaves out what only the GM may see (hidden
characters, reserves, the fog, GM notes: :mod:`afdesk.encounter.visibility`).

The pictures' encounters are rebuilt from the log: the Ops of the log are replayed from the
starting encounter through a :class:`~afdesk.encounter.history.History`, as recovery replays
a journal (:mod:`afdesk.storage.recovery`). The starting encounter is the one the undo
history began with (:func:`starting_state`: the done steps' inverses, last first).

Pure Python: no Qt. :func:`write_recap` writes the page atomically
(:func:`afdesk.storage.atomic.replace`).
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterator, Sequence
from pathlib import Path

import msgspec

from afdesk.encounter.combatant import Combatant, StateKind
from afdesk.encounter.contest.assembly import ContestRecord, Modifier
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.history import History, Step
from afdesk.encounter.model import Encounter
from afdesk.encounter.modes import registered_modes
from afdesk.encounter.ops.damage import OUT_NOTE
from afdesk.encounter.snapshot import EncounterState, LogEntry
from afdesk.encounter.visibility import player_visible
from afdesk.errors import AfdeskError
from afdesk.rules.dice import Die, Roll
from afdesk.rules.errors import RulesError
from afdesk.storage import atomic

GM_ONLY_OP_MODULES = ("afdesk.encounter.ops.fog", "afdesk.encounter.ops.reserve")
"""Ops the players' recap never lists: the fog and the reserves are the GM's."""
GM_ONLY_OPS = ("SetNotes",)
"""Nor the GM's notes."""


class RecapError(AfdeskError):
    """There is nothing to recap, or the recap cannot be made: the message says why."""


class Moment(msgspec.Struct, frozen=True):
    """The encounter at the start of a round: before the round's first log line."""

    exchange: int
    round: int
    state: EncounterState
    first: int
    """The index in the log of the round's first line."""


def starting_state(now: EncounterState, done: Sequence[Step]) -> EncounterState:
    """The encounter before the ``done`` steps (the undo history's, oldest first): their
    inverses applied to a copy of ``now``, last first. ``now`` is untouched."""
    enc = Encounter.from_state(now)
    for step in reversed(done):
        for _op, inverse in reversed(step.changes):
            enc.apply(inverse)
    return enc.state()


def round_starts(start: EncounterState, log: Sequence[LogEntry]) -> tuple[list[Moment], str]:
    """The encounter at the start of each round, the log's Ops replayed from ``start``
    (whose own log must begin ``log``); and what could not be replayed ('' if all was).

    The first moment is ``start`` itself. A line the replay refuses ends the pictures there
    (the text of the log is complete all the same)."""
    if tuple(log[: len(start.log)]) != start.log:
        raise RecapError("the starting encounter's log is not the beginning of this log")
    history = History(Encounter.from_state(start))
    first = len(start.log)
    key = (log[first].exchange, log[first].round) if first < len(log) else (0, 0)
    moments = [Moment(key[0], key[1], start, first)]
    for i in range(first, len(log)):
        entry = log[i]
        if (entry.exchange, entry.round) != key:
            key = (entry.exchange, entry.round)
            moments.append(Moment(key[0], key[1], history.encounter.state(), i))
        try:
            history.push(entry.op)
        except (IllegalOp, RulesError) as exc:
            return moments, f"line {i + 1} ({entry.text}) could not be replayed: {exc}"
    history.close()
    return moments, ""


# ------------------------------------------------------------------------------- words


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def round_title(exchange: int, round_: int) -> str:
    if exchange == 0:
        return "Before play"
    if round_ == 0:
        return f"Exchange {exchange}: the deal"
    return f"Exchange {exchange}, round {round_}"


def _die(d: Die) -> str:
    text = str(d.face)
    if d.retried_from is not None:
        text = f"{d.retried_from}→{d.face}"
    if d.exploded:
        text += "!"
    return text


def dice_text(roll: Roll | None) -> str:
    """ "4 6! 2 | Interference 3" (! exploded, a→b retried)."""
    if roll is None:
        return "not rolled"
    main = " ".join(_die(d) for d in roll.main_pool) or "no dice"
    if roll.interference:
        main += " | Interference " + " ".join(_die(d) for d in roll.interference)
    extra = [
        w for w, on in (("advantage", roll.advantage), ("disadvantage", roll.disadvantage)) if on
    ]
    if roll.ventures:
        extra.append(f"{roll.ventures} venture{'s' if roll.ventures != 1 else ''}")
    return main + (f" ({', '.join(extra)})" if extra else "")


def _mods(mods: Sequence[Modifier]) -> str:
    shown = [m for m in mods if m.enabled]
    return ", ".join(m.text() for m in shown) or "none"


def _name(state_enc: Encounter, cid: str) -> str:
    c = state_enc.combatants.get(cid)
    return c.name if c is not None else cid


def check_html(enc: Encounter, record: ContestRecord) -> str:
    """One check: who did what to whom, every roll's dice and modifiers, the outcome."""
    what = record.action.spec.verb
    if record.target:
        what += f" {_name(enc, record.target)}"
    if record.facet:
        what += f" ({record.facet})"
    rows = [
        f"<tr><th>{_e(_name(enc, record.attacker))}</th><td>{_e(what)}</td></tr>",
        f"<tr><th>Dice</th><td>{_e(dice_text(record.attack))}</td></tr>"
        if record.d20 is None
        else f"<tr><th>d20</th><td>{_e(record.d20.describe())}</td></tr>",
        f"<tr><th>Modifiers</th><td>{_e(_mods(record.modifiers))}</td></tr>",
    ]
    for d in record.defenses:
        rows.append(
            f"<tr><th>{_e(_name(enc, d.defender))} {_e(d.kind.verb)}</th>"
            f"<td>{_e(dice_text(d.roll))}; modifiers {_e(_mods(d.modifiers))}</td></tr>"
        )
    try:
        outcome = record.verdict(enc.ruleset).explain()
    except (RulesError, IllegalOp) as exc:
        outcome = f"not resolved ({exc})"
    rows.append(f"<tr><th>Outcome</th><td><b>{_e(outcome)}</b></td></tr>")
    return '<table class="check">' + "".join(rows) + "</table>"


def _ids(value: object, known: dict[str, Combatant]) -> Iterator[str]:
    """The character ids an Op's fields name (any depth)."""
    if isinstance(value, str):
        if value in known:
            yield value
    elif isinstance(value, msgspec.Struct):
        for field in value.__struct_fields__:
            yield from _ids(getattr(value, field), known)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _ids(v, known)


def _for_players(entry: LogEntry, before: Encounter, after: Encounter) -> bool:
    """Whether the players' recap lists this line: not the fog's or the reserves', and
    every character it names is one the players saw before or after it."""
    kind = type(entry.op)
    if kind.__module__ in GM_ONLY_OP_MODULES or kind.__name__ in GM_ONLY_OPS:
        return False
    people = set(_ids(entry.op, {**before.combatants, **after.combatants}))
    return all(player_visible(before, c) or player_visible(after, c) for c in people)


def fate(c: Combatant, state: EncounterState) -> str:
    """How a character ended: 'captured by …', 'escaped', 'out', 'down', or ''."""
    fates = (m.fate(getattr(state, m.part.name), c.id) for m in registered_modes() if m.part)
    fated = next((f for f in fates if f), "")  # a mode's own (a chase's result, H5)
    if fated in ("captured", "escaped"):
        return fated
    if c.exited == OUT_NOTE or fated == "out":
        return "out"
    if c.exited:
        return f"escaped ({c.exited})"
    if any(s.kind is StateKind.DOWN for s in c.states):
        return "down"
    return ""


# -------------------------------------------------------------------------------- page

STYLE = """
body { font-family: sans-serif; max-width: 60em; margin: 1em auto; color: #222; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #888; margin-top: 1.5em; }
img.map { max-width: 100%; border: 1px solid #aaa; display: block; margin: 0.5em 0; }
ol.log li { margin: 0.2em 0; } table.check { border-collapse: collapse; margin: 0.3em 0 0.6em; }
table.check th, table.check td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }
table.fates td, table.fates th { padding: 2px 10px; text-align: left; }
.note { color: #555; font-style: italic; }
"""


def recap_html(
    now: EncounterState,
    moments: Sequence[Moment],
    pictures: Sequence[bytes],
    *,
    players: bool = False,
    problem: str = "",
) -> str:
    """The recap page (see the module): ``now`` is the encounter at the end, ``moments``
    its round starts (:func:`round_starts`) and ``pictures`` their maps as PNG bytes, one
    per moment (fewer: the rest go without a picture)."""
    if not now.log:
        raise RecapError("the encounter's log is empty: nothing has been played to recap yet")
    title = now.meta.name
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_e(title)}: recap</title><style>{STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f"<p>Ruleset {_e(now.meta.ruleset)} · {len(now.log)} log lines"
        + (" · for the players" if players else " · the GM's copy")
        + "</p>",
    ]
    if now.meta.description:
        out.append(f"<p>{_e(now.meta.description)}</p>")
    if now.meta.notes and not players:
        out.append(f'<p class="note">GM notes: {_e(now.meta.notes)}</p>')
    out.extend(_rounds(now, moments, pictures, players))
    if problem:
        out.append(f'<p class="note">The pictures stop early: {_e(problem)}</p>')
    out.extend(_fates(now, moments, players))
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _rounds(
    now: EncounterState, moments: Sequence[Moment], pictures: Sequence[bytes], players: bool
) -> Iterator[str]:
    log = now.log
    first = moments[0].first if moments else len(log)
    if first > 0:
        yield "<h2>Earlier</h2>"
        yield (
            '<p class="note">These lines come before this session\'s undo history began '
            "(the encounter was opened with them), so no map of them can be rebuilt.</p>"
        )
        yield from _lines(now, log[:first], None, players)
    for i, m in enumerate(moments):
        end = moments[i + 1].first if i + 1 < len(moments) else len(log)
        yield f"<h2>{_e(round_title(m.exchange, m.round))}</h2>"
        if i < len(pictures) and pictures[i]:
            data = base64.b64encode(pictures[i]).decode("ascii")
            alt = f"The map at the start of {round_title(m.exchange, m.round).lower()}"
            yield f'<img class="map" alt="{_e(alt)}" src="data:image/png;base64,{data}">'
        yield from _lines(now, log[m.first : end], m.state, players)


def _lines(
    now: EncounterState, entries: Sequence[LogEntry], state: EncounterState | None, players: bool
) -> Iterator[str]:
    """The log lines (their checks with dice) replayed from ``state`` (None: read against
    the encounter at the end)."""
    enc = Encounter.from_state(state if state is not None else now)
    replaying = state is not None
    items = []
    for entry in entries:
        before = Encounter.from_state(enc.state()) if replaying else enc
        if replaying:
            try:
                enc.apply(entry.op)
            except (IllegalOp, RulesError):
                replaying = False
        if players and not _for_players(entry, before, enc):
            continue
        item = f"<li>{_e(entry.text)}"
        record = getattr(entry.op, "record", None)
        if isinstance(record, ContestRecord):
            item += check_html(before, record)
        items.append(item + "</li>")
    if items:
        yield '<ol class="log">' + "".join(items) + "</ol>"
    else:
        yield '<p class="note">Nothing recorded.</p>'


def _fates(now: EncounterState, moments: Sequence[Moment], players: bool) -> Iterator[str]:
    enc = Encounter.from_state(now)
    seen = {cid for m in moments for cid in _visible_ids(m.state)} | _visible_ids(now)
    rows = []
    for c in now.combatants:
        if players and (c.id not in seen or c.in_reserve):
            continue
        end = fate(c, now)
        rows.append(
            f"<tr><th>{_e(c.name)}</th><td>{_e(c.side.value)}</td>"
            f"<td>{_e(end or 'standing')}</td></tr>"
        )
    yield "<h2>At the end</h2>"
    summary = {
        what: [c.name for c in now.combatants if fate(c, now).startswith(what)]
        for what in ("down", "out", "captured", "escaped")
    }
    if players:
        shown = {c.name for c in enc.combatants.values() if c.id in seen and not c.in_reserve}
        summary = {k: [n for n in v if n in shown] for k, v in summary.items()}
    yield (
        "<ul>"
        + "".join(
            f"<li>{_e(k.capitalize())}: {_e(', '.join(v) or 'nobody')}</li>"
            for k, v in summary.items()
        )
        + "</ul>"
    )
    yield '<table class="fates">' + "".join(rows) + "</table>"


def _visible_ids(state: EncounterState) -> set[str]:
    enc = Encounter.from_state(state)
    return {c.id for c in state.combatants if player_visible(enc, c.id)}


def write_recap(path: str | Path, page: str) -> None:
    """Write the page atomically: the file is the whole page or as it was
    (:class:`~afdesk.storage.errors.SaveError` says why not, and where)."""
    atomic.replace(Path(path), page.encode("utf-8"))


__all__ = [
    "Moment",
    "RecapError",
    "dice_text",
    "fate",
    "recap_html",
    "round_starts",
    "round_title",
    "starting_state",
    "write_recap",
]
