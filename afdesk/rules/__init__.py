"""The rules engine: dice, checks, opposition and exact odds for three rulesets.

Pure Python, no Qt. ``af254`` is the default ruleset (R1-R13), ``classic`` the selectable
af-classic (C1-C6), ``d20`` the five degrees (D1-D5); ``odds`` gives exact probabilities.
``rulesets`` makes each a :class:`~afdesk.rules.rulesets.Ruleset` object looked up by the
name files store: callers ask it what it can do instead of comparing names.
"""

import afdesk.msgspec_first  # noqa: F401 - before msgspec is imported (see there)
from afdesk.rules.errors import RulesError
from afdesk.rules.rulesets import DEFAULT, Ruleset, ruleset_named, ruleset_names

RULESETS = ruleset_names()
DEFAULT_RULESET = DEFAULT.name

__all__ = ["DEFAULT_RULESET", "RULESETS", "RulesError", "Ruleset", "ruleset_named"]
