"""Nothing outside ``afdesk/rules`` compares ruleset names: the model, the file format and
the GUI ask a :class:`~afdesk.rules.rulesets.Ruleset` what it can do (item 3)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import afdesk
from afdesk.rules import DEFAULT_RULESET, RULESETS, RulesError
from afdesk.rules.rulesets import SpendUnit, all_rulesets, ruleset_named

ROOT = Path(afdesk.__file__).parent
OUTSIDE_RULES = ("encounter", "storage", "gui")
RULES_MODULES = {"af254", "classic", "d20"}


def _docstrings(tree: ast.AST) -> set[int]:
    """Strings standing alone as statements: docstrings of modules, classes, functions and
    attributes."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def offences(source: str) -> list[str]:
    """Ruleset names written as strings (docstrings aside) and ``<ruleset module>.NAME``."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            for name in RULESETS:
                if name in node.value:
                    found.append(f"line {node.lineno}: the string {node.value!r} names {name}")
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "NAME"
            and isinstance(node.value, ast.Name)
            and node.value.id in RULES_MODULES
        ):
            found.append(f"line {node.lineno}: {node.value.id}.NAME")
    return found


def test_no_ruleset_name_outside_the_rules():
    bad = []
    for package in OUTSIDE_RULES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for offence in offences(path.read_text(encoding="utf-8")):
                bad.append(f"{path.relative_to(ROOT.parent)} {offence}")
    assert not bad, "ask the Ruleset instead of naming it:\n" + "\n".join(bad)


@pytest.mark.parametrize(
    "source",
    [
        'if enc.ruleset == "d20-degrees":\n    pass\n',
        "from afdesk.rules import classic\nx = enc.ruleset == classic.NAME\n",
        'raise ValueError("af-classic spends Will")\n',
    ],
)
def test_the_check_finds_a_name(source):
    assert offences(source)


def test_a_docstring_may_name_a_ruleset():
    assert not offences('def f():\n    """Under af-classic, Will."""\n')


def test_lookup_by_the_stored_name():
    assert tuple(r.name for r in all_rulesets()) == RULESETS
    assert ruleset_named(DEFAULT_RULESET) is all_rulesets()[0]
    for r in all_rulesets():
        assert ruleset_named(r.name) is r
    with pytest.raises(RulesError, match="unknown ruleset 'af-3'"):
        ruleset_named("af-3")


def test_capabilities():
    af, classic, d20 = (ruleset_named(n) for n in RULESETS)
    assert (af.spend_unit, classic.spend_unit, d20.spend_unit) == (
        SpendUnit.SHIFTS,
        SpendUnit.WILL,
        None,
    )
    assert af.dice_pools and classic.dice_pools and not d20.dice_pools
    assert af.defense_roll and not d20.defense_roll
    assert d20.keywords and not af.keywords
    assert (af.venture_interference, classic.venture_interference) == (2, 1)
    assert af.max_ventures(0) == 3 and af.max_ventures(4) == 1  # R8
    assert classic.max_ventures(9) == 3 and d20.max_ventures(0) == 0  # C3
    assert af.odds_count_guard_help and not classic.odds_count_guard_help
    assert af.momentum and classic.momentum and not d20.momentum
