"""The rules engine: dice, checks, opposition and exact odds for three rulesets.

Pure Python, no Qt. ``af254`` is the default ruleset (R1-R13), ``classic`` the selectable
af-classic (C1-C6), ``d20`` the five degrees (D1-D5); ``odds`` gives exact probabilities.
"""

from afdesk.rules.errors import RulesError

RULESETS = ("af-2.5.4", "af-classic", "d20-degrees")
DEFAULT_RULESET = "af-2.5.4"

__all__ = ["DEFAULT_RULESET", "RULESETS", "RulesError"]
