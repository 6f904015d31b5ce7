"""One chase turn, the pole of a round and the exchange end (H1-H3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import NamedTuple

from afdesk.rules.errors import RulesError

GREEN = "green"
BLUE = "blue"
RED = "red"
COLOURS = (GREEN, BLUE, RED)
BAD_COLOURS = (GREEN, BLUE)
"""H2: which of green and blue is the bad colour is a per-encounter setting (default blue)."""


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{what} must be a whole number, got {value!r}")
    return value


def colour(face: int) -> str:
    """H1: the pursuit (effect) die's colour: 1-3 green, 4-5 blue, 6 red."""
    face = _int(face, "a pursuit die face")
    if not 1 <= face <= 6:
        raise RulesError(f"a pursuit die face is 1-6, got {face}")
    if face <= 3:
        return GREEN
    return BLUE if face <= 5 else RED


def good_colour(bad: str) -> str:
    """H2: the good colour when ``bad`` is the bad one."""
    if bad not in BAD_COLOURS:
        raise RulesError(f"the bad colour is green or blue, got {bad!r}")
    return BLUE if bad == GREEN else GREEN


class PursuitTurn(NamedTuple):
    """One participant's chase turn after its check (H2, H3).

    ``speed`` is the round's speed (halved and reduced on the bad colour), ``added`` what the
    chase total gains, ``grit_lost`` the failure margin on a failure, ``special_actions`` one
    per red die (H1), ``out`` a round speed of 0 or less (knocked out, H3), ``score`` what is
    compared for the pole: what the total gained (speed plus margin on a success).
    """

    speed: int
    added: int
    grit_lost: int
    special_actions: int
    out: bool
    score: int


def _colours(colours: Sequence[str]) -> tuple[int, str]:
    """(reds, last colour) of a run of pursuit dice: reds then one green or blue (H1)."""
    if isinstance(colours, str):
        raise RulesError("colours must be a sequence of colours, not one string")
    run = tuple(colours)
    if not run:
        raise RulesError("a chase turn rolls at least one pursuit die (H1)")
    for c in run:
        if c not in COLOURS:
            raise RulesError(f"a pursuit die is green, blue or red, got {c!r}")
    *reds, last = run
    if any(c != RED for c in reds):
        raise RulesError(f"only reds are followed by another pursuit die (H1): {', '.join(run)}")
    if last == RED:
        raise RulesError(f"a red is followed by another pursuit die (H1): {', '.join(run)}")
    return len(reds), last


def turn(
    speed: int,
    colours: Sequence[str],
    success: bool,
    margin: int,
    *,
    bad: str = BLUE,
) -> PursuitTurn:
    """One participant's chase turn after the check (H1-H3).

    ``colours``: the pursuit dice of this turn in order (all reds, then the last die, H1);
    ``margin``: the success margin on a success, the failure margin on a failure (R13).

    - good colour, success: round speed S, total gains S + m;
    - good colour, failure: round speed S, total gains S // 2, grit lost m;
    - bad colour, success: round speed S // 2, total gains S // 2 + m;
    - bad colour, failure: round speed S // 2 - m, total gains it if positive, grit lost m.

    A round speed of 0 or less is out (H3).
    """
    speed = _int(speed, "speed")
    margin = _int(margin, "margin")
    if speed < 0:
        raise RulesError(f"speed cannot be negative, got {speed}")
    if margin < 0:
        raise RulesError(f"a margin cannot be negative, got {margin} (R13)")
    if not isinstance(success, bool):
        raise RulesError(f"success must be true or false, got {success!r}")
    good = good_colour(bad)
    reds, last = _colours(colours)
    is_bad = last != good
    if not is_bad:
        round_speed = speed
        added = speed + margin if success else speed // 2
    else:
        half = speed // 2
        round_speed = half if success else half - margin
        added = half + margin if success else max(round_speed, 0)
    grit = 0 if success else margin
    return PursuitTurn(round_speed, added, grit, reds, round_speed <= 0, added)


def _rank(ids: Sequence[str], values: Mapping[str, int], reflex: Sequence[str]) -> list[str]:
    """Highest value first; equal values by reflex order (E2, H3)."""
    order = {pid: i for i, pid in enumerate(reflex)}
    ranked = sorted(ids, key=lambda p: (-values[p], order.get(p, len(order))))
    for a, b in pairwise(ranked):
        # Sorted so: a tied ``a`` without a card means ``b`` has none either.
        if values[a] == values[b] and a not in order:
            raise RulesError(
                f"{a} and {b} are tied at {values[a]} and neither holds a reflex card to break it"
            )
    return ranked


def _values(values: Mapping[str, int], what: str) -> dict[str, int]:
    out = {}
    for pid, v in values.items():
        if not isinstance(pid, str):
            raise RulesError(f"participants are named by strings, got {pid!r}")
        out[pid] = _int(v, f"{pid}'s {what}")
    return out


def pole(scores: Mapping[str, int], reflex: Sequence[str]) -> str:
    """H3: the participant with the highest score this round; the higher reflex card
    (earlier in ``reflex``, listed from the highest card down) breaks ties."""
    values = _values(scores, "score")
    if not values:
        raise RulesError("no scores: a round without turns has no pole")
    return _rank(list(values), values, reflex)[0]


def resolve_exchange_end(
    totals: Mapping[str, int],
    reflex: Sequence[str],
    choices: Mapping[str, str | None],
    sides: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """H3: the exchange end, walked from the highest total down (reflex breaks ties).

    A participant in ``choices`` is still in the chase: ``None`` escapes, a name captures
    that participant, which must be of another side (``sides``: participant -> side; one
    with no side given is of another side than everyone), have a lower total and not have
    escaped or been captured (a captor stays, a captured participant makes no choice). A
    participant in ``totals`` but not in ``choices`` was knocked out: it chooses nothing but
    can still be captured. Returns "escaped", "captured by <id>", "captor" or "out" for
    every participant; an illegal choice raises :class:`RulesError`.
    """
    values = _values(totals, "total")
    side = dict(sides or {})
    for pid in choices:
        if pid not in values:
            raise RulesError(f"{pid} makes a choice but has no chase total")
    result: dict[str, str] = {}
    for pid in _rank(list(values), values, reflex):
        if pid in result:
            continue  # captured: makes no choice
        if pid not in choices:
            result[pid] = "out"
            continue
        target = choices[pid]
        if target is None:
            result[pid] = "escaped"
            continue
        if target not in values:
            raise RulesError(f"{pid} cannot capture {target}: not in the chase")
        if target == pid:
            raise RulesError(f"{pid} cannot capture itself")
        if side.get(pid) and side.get(pid) == side.get(target):
            raise RulesError(
                f"{pid} cannot capture {target}: both are on the {side[pid]} side; only a "
                "participant of another side can be captured (H3)"
            )
        if values[target] >= values[pid]:
            raise RulesError(
                f"{pid} (total {values[pid]}) cannot capture {target} (total "
                f"{values[target]}): only a lower total can be captured (H3)"
            )
        if target in result:
            raise RulesError(f"{pid} cannot capture {target}: {result[target]} already (H3)")
        result[pid] = "captor"
        result[target] = f"captured by {pid}"
    return result
