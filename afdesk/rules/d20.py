"""Ruleset ``d20-degrees`` (seed 004; docs/rules.md D1-D5).

>>> degree(12, 3, 14, 4)          # 15 against TN 14, FN 18: a Pass
<Degree.PASS: 2>
>>> degree(1, 30, 14, 4)          # a natural 1 is one step worse
<Degree.SUCCESS: 3>
"""

import enum
from collections.abc import Iterable

import msgspec

from afdesk.rules.dice import DiceSource, RandomSource, validate_face
from afdesk.rules.errors import RulesError

NAME = "d20-degrees"


class Degree(enum.IntEnum):
    """The five degrees, worst first, so they compare naturally."""

    DISASTER = 0
    FAILURE = 1
    PASS = 2
    SUCCESS = 3
    TRIUMPH = 4

    @property
    def label(self) -> str:
        return self.name.capitalize()


PLAIN_TN = 10
"""A d20-degrees check with no defender: TN 10 (the base of every TN, D1), no F."""

KEYWORDS = frozenset({"risk", "assurance", "ease", "difficulty", "determination"})


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{what} must be a whole number, got {value!r}")
    return value


def normalise_keywords(keywords: Iterable[str]) -> frozenset[str]:
    """The keywords as a set of lower-case names, with Risk/Assurance and Ease/Difficulty
    cancelling (D4); :class:`RulesError` for an unknown one."""
    if isinstance(keywords, str):
        keywords = (keywords,)
    out = set()
    for k in keywords:
        if not isinstance(k, str) or k.strip().lower() not in KEYWORDS:
            raise RulesError(
                f"unknown keyword {k!r}: expected one of " + ", ".join(sorted(KEYWORDS))
            )
        out.add(k.strip().lower())
    for a, b in (("risk", "assurance"), ("ease", "difficulty")):
        if a in out and b in out:
            out -= {a, b}
    return frozenset(out)


def fortified_number(tn: int, fortification: int) -> int:
    """FN = TN + F (D1)."""
    return tn + fortification


def rolled_degree(total: int, tn: int, fortification: int) -> Degree:
    """The degree of a check total before the natural die and keywords (D2)."""
    fn = tn + fortification
    if total < tn - 10:
        return Degree.DISASTER
    if total < tn:
        return Degree.FAILURE
    if total < fn:
        return Degree.PASS
    if total < fn + 10:
        return Degree.SUCCESS
    return Degree.TRIUMPH


def _step(d: Degree, step: int, fortification: int) -> Degree:
    """One step better or worse, clamped; with F = 0 there is no Pass to step onto (D2)."""
    value = d + step
    if fortification == 0 and value == Degree.PASS:
        value += step
    return Degree(min(max(value, Degree.DISASTER), Degree.TRIUMPH))


def degree(
    die: int, bonus: int, tn: int, fortification: int, *, keywords: Iterable[str] = ()
) -> Degree:
    """The degree of ``die + bonus`` against TN and F (D2), after the natural 1 or 20 (D3)
    and then the keywords (D4)."""
    validate_face(die, "die", sides=20)
    bonus = _int(bonus, "bonus")
    tn = _int(tn, "TN")
    fortification = _int(fortification, "fortification")
    if fortification < 0:
        raise RulesError(f"fortification cannot be negative, got {fortification}")
    kw = normalise_keywords(keywords)
    d = rolled_degree(die + bonus, tn, fortification)
    if die == 1:
        d = _step(d, -1, fortification)
    elif die == 20:
        d = _step(d, +1, fortification)
    if "risk" in kw and d is Degree.FAILURE:
        d = Degree.DISASTER
    if "assurance" in kw and d is Degree.DISASTER:
        d = Degree.FAILURE
    if "ease" in kw and d is Degree.SUCCESS:
        d = Degree.TRIUMPH
    if "difficulty" in kw and d is Degree.TRIUMPH:
        d = Degree.SUCCESS
    if "determination" in kw and d is Degree.PASS:
        d = Degree.FAILURE if die <= 10 else Degree.SUCCESS
    return d


def riders(d: Degree, *, keywords: Iterable[str] = ()) -> tuple[bool, bool]:
    """``(actor may use a Rider, target may use a Rider as a Reaction)`` (D5).

    Assurance: Failures do not trigger Rider reactions; Difficulty: Successes do not
    trigger Riders (D4).
    """
    kw = normalise_keywords(keywords)
    actor = d >= Degree.SUCCESS and not (d is Degree.SUCCESS and "difficulty" in kw)
    target = d <= Degree.FAILURE and not (d is Degree.FAILURE and "assurance" in kw)
    return actor, target


class D20Check(msgspec.Struct, frozen=True):
    """One rolled d20 check and everything it came to (D1-D5)."""

    die: int
    bonus: int
    tn: int
    fortification: int
    keywords: tuple[str, ...] = ()
    seed: int | None = None
    draw: int = -1

    @property
    def total(self) -> int:
        return self.die + self.bonus

    @property
    def degree(self) -> Degree:
        return degree(self.die, self.bonus, self.tn, self.fortification, keywords=self.keywords)

    @property
    def riders(self) -> tuple[bool, bool]:
        return riders(self.degree, keywords=self.keywords)

    def describe(self) -> str:
        actor, target = self.riders
        text = f"{self.die}+{self.bonus}={self.total} vs TN {self.tn}"
        if self.fortification:
            text += f"/FN {self.tn + self.fortification}"
        text += f": {self.degree.label}"
        if actor:
            text += ", actor's Rider"
        if target:
            text += ", target's Rider reaction"
        return text


def roll_d20(
    bonus: int,
    tn: int,
    fortification: int,
    *,
    keywords: Iterable[str] = (),
    source: DiceSource | None = None,
) -> D20Check:
    """Roll d20 + bonus against TN and F (D1)."""
    keywords = (keywords,) if isinstance(keywords, str) else tuple(keywords)
    normalise_keywords(keywords)
    kw = tuple(sorted({k.strip().lower() for k in keywords}))
    degree(10, bonus, tn, fortification)  # validates the numbers before rolling
    src: DiceSource = source or RandomSource()
    die, draw = src.d20()
    return D20Check(
        die=die,
        bonus=bonus,
        tn=tn,
        fortification=fortification,
        keywords=kw,
        seed=getattr(src, "seed", None),
        draw=draw,
    )


def target_number(quick: int, training: int = 0, bonus: int = 0) -> int:
    """TN = 10 + quick stat + defense training + defense bonus (D1)."""
    return 10 + quick + training + bonus


def fortification_of(strong: int, bonus: int = 0) -> int:
    """F = strong stat + fortification bonus (D1)."""
    return strong + bonus


def effect(strong: int, bonus: int = 0) -> int:
    """E = strong stat / 2 (rounded down) + effect bonus (D1)."""
    return strong // 2 + bonus
