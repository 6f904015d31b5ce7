"""What checks there are: the kinds a character makes (Hack, Look, Hustle, ...), what each
uses and who may oppose it, and the kinds of defense (E4-E8, E12-E14)."""

import enum

import msgspec


class CheckKind(enum.StrEnum):
    """What a check is for: Hack, Look, Hustle, ... (not ``ActionKind``, the action it costs)."""

    HACK = "hack"
    AIM = "aim"
    TAUNT = "taunt"
    DISTRACT = "distract"
    LOOK = "look"
    CONVINCE = "convince"
    LEAVE_OVERLAP = "leave-overlap"
    HIDE = "hide"
    HUSTLE = "hustle"
    CREEP = "creep"
    CHECK = "check"

    @property
    def spec(self) -> "CheckSpec":
        return CHECK_SPECS[self]

    @property
    def label(self) -> str:
        return CHECK_SPECS[self].label


class CheckSpec(msgspec.Struct, frozen=True):
    label: str
    verb: str
    facet: str
    uses: str
    """"action", "snap" or "free" (part of a move, or a plain check)."""
    attack: bool = False
    social: bool = False
    ranged: bool = False
    defenses: tuple[str, ...] = ()

    @property
    def takes_target(self) -> bool:
        """Whether the check is made against someone (it can be opposed)."""
        return bool(self.defenses)


class DefenseKind(enum.StrEnum):
    DODGE = "dodge"
    PARRY = "parry"
    INSIGHT = "insight"
    COUNTER = "counter"
    DIVE = "dive"
    RETORT = "retort"
    SNEAK = "sneak"

    @property
    def label(self) -> str:
        return DEFENSES[self].label

    @property
    def verb(self) -> str:
        """ "Chen dodges", "Huang parries", "Bao uses insight"."""
        return DEFENSES[self].verb

    @property
    def base(self) -> "DefenseKind":
        """The check a guard-only option is (E4): Counter a parry, Dive a dodge, Retort an
        insight."""
        return DEFENSES[self].base or self


class DefenseRow(msgspec.Struct, frozen=True):
    """A defense, declared once (E4, E5, E8, P5): its name, verb, the facet it rolls and its
    rule; a guard-only defense names the check it is (``base``)."""

    label: str
    verb: str
    facet: str
    rule: str
    base: DefenseKind | None = None


DEFENSES: dict[DefenseKind, DefenseRow] = {
    DefenseKind.DODGE: DefenseRow("Dodge", "dodges", "move", "E8"),
    DefenseKind.PARRY: DefenseRow("Parry", "parries", "fight", "E8"),
    DefenseKind.INSIGHT: DefenseRow("Insight", "uses insight", "influence", "E8"),
    DefenseKind.COUNTER: DefenseRow("Counter", "counters", "fight", "E4", DefenseKind.PARRY),
    DefenseKind.DIVE: DefenseRow("Dive", "dives", "move", "E4", DefenseKind.DODGE),
    DefenseKind.RETORT: DefenseRow("Retort", "retorts", "influence", "P5", DefenseKind.INSIGHT),
    DefenseKind.SNEAK: DefenseRow("Sneak", "sneaks", "sneak", "E5"),
}
"""Every defense: dodge, parry, insight (E8), the guard-only counter, dive and retort (E4,
P5), and sneak against a Look (E5)."""

DEFENSE_FACET = {k: r.facet for k, r in DEFENSES.items() if r.base is None}
"""The facet each defense check rolls."""
GUARD_ONLY = tuple(k for k, r in DEFENSES.items() if r.base is not None)
"""Defenses only a guard makes (E4)."""


class Via(enum.StrEnum):
    """Where a defense comes from."""

    GUARD = "guard"
    DEFENSE = "defense"
    """Defend (E6) or Screen (E7): a defense against every check."""
    FEND = "fend"
    """Fend: an extra parry defense until the next turn (E5)."""
    QUIP = "quip"
    """Quip: an extra retort defense until the next turn (E5)."""
    CONTEST = "contest"
    """A decoy's owner contesting a Look with sneak (E5), or an opponent contesting a
    character leaving its overlap (E14)."""

    @property
    def label(self) -> str:
        return self.value.capitalize()


CHECK_SPECS = {
    CheckKind.HACK: CheckSpec(
        "Hack", "hacks at", "fight", "action", attack=True, defenses=("dodge", "parry")
    ),
    CheckKind.AIM: CheckSpec(
        "Aim",
        "aims at",
        "agility",
        "action",
        attack=True,
        ranged=True,
        defenses=("dodge", "parry"),
    ),
    CheckKind.TAUNT: CheckSpec(
        "Taunt",
        "taunts",
        "perform",
        "action",
        attack=True,
        social=True,
        defenses=("insight",),
    ),
    CheckKind.DISTRACT: CheckSpec(
        "Distract", "distracts", "perform", "snap", social=True, defenses=("insight",)
    ),
    CheckKind.LOOK: CheckSpec("Look", "looks for", "study", "snap", defenses=("sneak",)),
    CheckKind.CONVINCE: CheckSpec(
        "Convince",
        "tries to convince",
        "influence",
        "action",
        social=True,
        defenses=("insight",),
    ),
    CheckKind.LEAVE_OVERLAP: CheckSpec(
        "Leave overlap", "slips away from", "move", "free", defenses=("dodge", "parry")
    ),
    CheckKind.HIDE: CheckSpec("Hide", "hides", "sneak", "action"),
    CheckKind.HUSTLE: CheckSpec("Hustle", "hustles", "move", "snap"),
    CheckKind.CREEP: CheckSpec("Creep", "creeps", "sneak", "snap"),
    CheckKind.CHECK: CheckSpec("Check", "checks", "", "free"),
}
