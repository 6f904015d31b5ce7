"""One root for afdesk's errors (item 11): a GUI that catches ``AfdeskError``
catches every failure afdesk means to report; the old bases still hold."""

from __future__ import annotations

import pytest

from afdesk.encounter.errors import IllegalOp
from afdesk.errors import AfdeskError
from afdesk.rules.errors import RulesError
from afdesk.storage import LoadError, SaveError
from afdesk.storage.errors import JournalError
from afdesk.storage.migrations import MigrationError


@pytest.mark.parametrize(
    "error",
    [
        IllegalOp("Chen has no action left"),
        RulesError("a pool needs at least one die"),
        LoadError("ford.afenc", "meta: expected an object"),
        SaveError("ford.afenc", "the disk is full"),
        JournalError("the disk is full"),
        MigrationError("this afdesk cannot upgrade files from version 7 to 8"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_every_error_is_an_afdesk_error(error):
    assert isinstance(error, AfdeskError)
    with pytest.raises(AfdeskError):
        raise error


def test_old_bases_are_kept():
    """``except ValueError`` around Ops and rules keeps working."""
    assert issubclass(IllegalOp, ValueError)
    assert issubclass(RulesError, ValueError)
    assert not issubclass(LoadError, ValueError)


def test_a_journal_error_is_a_save_error_naming_the_journal():
    error = JournalError("the disk is full")
    assert isinstance(error, SaveError)
    assert error.target == "the crash journal"
    assert str(error) == "could not save the crash journal: the disk is full"


def test_messages_name_what_and_where():
    assert str(LoadError("ford.afenc", "zone: expected an object")) == (
        "ford.afenc: zone: expected an object"
    )
    assert (
        str(SaveError("ford.afenc", "no permission")) == "could not save ford.afenc: no permission"
    )


def test_the_root_imports_nothing_of_afdesk():
    """Every layer may import it, rules at the bottom: it must depend on nothing."""
    import ast
    import inspect

    import afdesk.errors

    tree = ast.parse(inspect.getsource(afdesk.errors))
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert all(isinstance(n, ast.ImportFrom) and n.module == "__future__" for n in imports)
