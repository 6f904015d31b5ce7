"""Rule ids and docs/rules.md: every rule id the code and the tests cite (R10, E11, H5,
N4a, ...) is defined there; what docs/rules.md cites as ``path::name`` exists; nothing
cites an issue number (rules are cited by id, never by the tracker's numbers).

A citation is an id in a comment or a string (docstrings included), or a word of a test's
name (``test_R9_C2_the_kick``, ``test_r13_h3_...``). An id is a family letter (R, C, D, E,
H, P, N) and a number, optionally a sub-id letter a to d (P4a), standing alone: not
inside a longer word or number (``QR10``, ``E10x``, ``0xE1``, ``3E10``), not a hex colour
(``#E11``) and not ``D20`` (the ruleset, and the die). Code identifiers other than test
names are not read, so ``D20Check`` or a variable called ``E1`` is no citation.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
SCANNED = ("afdesk", "tests")

FAMILIES = {"R": 13, "C": 6, "D": 5, "E": 17, "H": 5, "P": 9, "N": 8}
SUB_IDS = ("P4a", "P4b", "N4a", "N4b", "N4c", "N4d")
BUILT = ("R", "C", "D", "E", "H", "P")
"""Families afdesk has built: each of their entries names tests that cover it."""

ID_IN_TEXT = re.compile(
    r"(?<![A-Za-z0-9_#])(?<!</)(?<!<)([RCDEHPN])([0-9]{1,2})([a-d]?)(?![A-Za-z0-9])"
)
ID_IN_TEST_NAME = re.compile(r"([RCDEHPNrcdehpn])([0-9]{1,2})([a-d]?)")
NOT_IDS = frozenset({"D20"})

ISSUE_NUMBER = re.compile(
    r"(?i)\bissues?[\s_#:-]*(?:no\.?\s*|nr\.?\s*|number\s*)?#?\s*\d+"
    r"|\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?|see)\s+#\d+"
)


# --------------------------------------------------------------------------- reading


def ids_in_text(text: str) -> list[str]:
    """The rule ids cited in a comment or a string."""
    found = []
    for m in ID_IN_TEXT.finditer(text):
        rule = m.group(1) + m.group(2) + m.group(3)
        if rule not in NOT_IDS:
            found.append(rule)
    return found


def ids_in_test_name(name: str) -> list[str]:
    """The rule ids among the words of a test's name (either case: ``test_r13_h3_x``)."""
    found = []
    for word in name.split("_"):
        m = ID_IN_TEST_NAME.fullmatch(word)
        if m:
            rule = m.group(1).upper() + m.group(2) + m.group(3)
            if rule not in NOT_IDS:
                found.append(rule)
    return found


_TEXT_TOKENS = {tokenize.COMMENT, tokenize.STRING}
_TEXT_TOKENS |= {getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}  # Python 3.12+


_TEST_NAME_WITH_ID = re.compile(r"\btest_(?:\w*?_)?[RCDEHPNrcdehpn][0-9]{1,2}[a-d]?(?:_|\b)")


def citations(source: str) -> Iterator[tuple[int, str]]:
    """(line, id) for every rule id cited in Python ``source``."""
    if not (ID_IN_TEXT.search(source) or _TEST_NAME_WITH_ID.search(source)):
        return  # nothing that looks like an id: no need to tokenize (most of the time)
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in _TEXT_TOKENS:
            for offset, line in enumerate(tok.string.split("\n")):
                for rule in ids_in_text(line):
                    yield tok.start[0] + offset, rule
        elif tok.type == tokenize.NAME and tok.string.startswith("test_"):
            for rule in ids_in_test_name(tok.string):
                yield tok.start[0], rule


def python_files() -> list[Path]:
    return sorted(
        p for d in SCANNED for p in (ROOT / d).rglob("*.py") if "__pycache__" not in p.parts
    )


def expected_ids() -> list[str]:
    """Every id, in the order of docs/rules.md: each family in turn, sub-ids after their
    rule."""
    out = []
    for family, count in FAMILIES.items():
        for n in range(1, count + 1):
            out.append(f"{family}{n}")
            out.extend(sub for sub in SUB_IDS if sub[:-1] == f"{family}{n}")
    return out


_HEADING = re.compile(r"^### ([A-Z][0-9]{1,2}) \S")
_SUB_ID = re.compile(r"^- \*\*([A-Z][0-9]{1,2}[a-z])\*\* \S")


def doc_entries() -> dict[str, str]:
    """Each id docs/rules.md defines (a ``### R10 Shifts`` heading, or a ``- **P4a** ...``
    item under its rule) and the text of its entry."""
    entries: dict[str, str] = {}
    current = ""
    for line in RULES_DOC.read_text(encoding="utf-8").splitlines():
        heading = _HEADING.match(line)
        if heading or line.startswith("## "):
            current = heading.group(1) if heading else ""
            if current:
                assert current not in entries, f"docs/rules.md defines {current} twice"
                entries[current] = ""
            continue
        sub = _SUB_ID.match(line)
        if sub:
            assert sub.group(1) not in entries, f"docs/rules.md defines {sub.group(1)} twice"
            entries[sub.group(1)] = line
        if current:
            entries[current] += line + "\n"
    return entries


def doc_references() -> list[tuple[int, str, str]]:
    """(line, path, name) for every ``path::name`` and every backquoted path (a module or
    a folder) in docs/rules.md (name empty for a bare path)."""
    out = []
    text = RULES_DOC.read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        for m in re.finditer(r"`((?:afdesk|tests)/[^`\s:]+)(?:::(\w+))?`", line):
            out.append((number, m.group(1), m.group(2) or ""))
    return out


_DEFINITION = re.compile(
    r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)|^(\w+)[ \t]*(?::[^=\n]*)?=(?!=)", re.M
)


def defined_names(path: Path) -> set[str]:
    """Every function and class of a module (methods and nested ones too), and the names
    it assigns at the top level."""
    found = _DEFINITION.findall(path.read_text(encoding="utf-8"))
    return {a or b for a, b in found}


# ----------------------------------------------------------------------------- tests


def test_the_scanner_finds_ids_and_skips_look_alikes():
    r10, e4, r11, e11, n4a = "R" + "10", "E" + "4", "R" + "11", "E" + "11", "N" + "4a"
    assert ids_in_text(f"Shifts ({r10}); a guard ({e4}, {r11}) and {n4a}.") == [
        r10,
        e4,
        r11,
        n4a,
    ]
    assert ids_in_text(f"({e11}) then {r10}: and '{r10}'") == [e11, r10, r10]
    look_alikes = (
        "D" + "20",  # the ruleset and the die
        "a D" + "20Check",
        "QR" + "10 and Q" + "E4",  # inside longer words
        "E" + "10x",
        "0x" + "E1, 3" + "E10, 1e5",  # hex and exponents
        "colour #" + "E11 and #" + "C" + "12",
        "<" + "H1>title</" + "H1>",
        "Key_F1, snake_" + "E" + "4_case",
    )
    for text in look_alikes:
        assert ids_in_text(text) == [], text
    assert ids_in_test_name("test_" + "R9_" + "C2_the_kick") == ["R9", "C2"]
    assert ids_in_test_name("test_" + "r13_" + "h3_a_roll") == ["R13", "H3"]
    assert ids_in_test_name("test_" + "d20_degrees_and_e2e_flows") == []
    src = f'x = 1  # {e4}\n"""A docstring\nciting {r10}."""\ndef test_{"h5"}_crew(): ...\n'
    assert list(citations(src)) == [(1, e4), (3, r10), (4, "H5")]


def test_the_issue_scanner_finds_numbers_only():
    cited = ("issue {}", "Issue #{}", "see issue no. {}", "issues {} and 5", "fixes #{}")
    for template in cited:  # filled in here, so that this file itself cites no issue
        assert ISSUE_NUMBER.search(template.format(12)), template
    for text in ("the issue log line", "issues", "tissue 12", "an issue-free run", "#888"):
        assert not ISSUE_NUMBER.search(text), text


def test_docs_rules_md_defines_every_rule_id_once():
    entries = doc_entries()
    assert list(entries) == expected_ids()


def test_every_rule_id_cited_in_the_code_and_tests_is_in_docs_rules_md():
    defined = set(doc_entries())
    missing = []
    cited = 0
    for path in python_files():
        for line, rule in citations(path.read_text(encoding="utf-8")):
            cited += 1
            if rule not in defined:
                missing.append(f"{path.relative_to(ROOT)}:{line}: {rule}")
    assert cited > 500, "the scan found too few citations: is it reading the files?"
    assert not missing, "rule ids cited but not in docs/rules.md:\n" + "\n".join(missing)


def test_nothing_cites_an_issue_number():
    found = []
    for path in python_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in ISSUE_NUMBER.finditer(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {m.group(0)!r}")
    assert not found, "cite the rule id or the doc, not the issue:\n" + "\n".join(found)


def test_what_docs_rules_md_names_exists():
    problems = []
    names: dict[Path, set[str]] = {}
    refs = doc_references()
    for line, rel, name in refs:
        path = ROOT / rel
        if not (path.is_file() if rel.endswith(".py") else path.is_dir()):
            problems.append(f"docs/rules.md:{line}: {rel} does not exist")
            continue
        if name:
            if path not in names:
                names[path] = defined_names(path)
            if name not in names[path]:
                problems.append(f"docs/rules.md:{line}: {rel} defines no {name}")
    assert len(refs) > 300
    assert not problems, "\n".join(problems)


def test_each_built_rule_names_its_tests_and_each_other_its_status():
    for rule, text in doc_entries().items():
        if rule[-1].islower():
            continue  # a sub-id is part of its rule's entry
        assert "**Rule.**" in text, f"{rule}: no **Rule.** paragraph"
        if rule[0] in BUILT:
            assert re.search(r"\*\*Tests\.\*\* `tests/\S+\.py(::test_\w+)?`", text), (
                f"{rule}: a built rule names the tests that cover it"
            )
        else:
            assert "**Status.**" in text and "built" in text, (
                f"{rule}: a rule not built says so in a **Status.** paragraph"
            )


def test_the_docs_link_docs_rules_md():
    assert "(rules.md)" in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    development = readme.split("## Development", 1)[1]
    assert "docs/rules.md" in development
