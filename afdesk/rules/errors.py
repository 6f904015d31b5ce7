"""Errors of the rules engine."""


class RulesError(ValueError):
    """Bad input to the rules engine: the message says what is wrong."""
