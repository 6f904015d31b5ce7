"""msgspec, imported once for the pure layers without ``typing_extensions``.

msgspec reads its Structs' annotations with ``typing_extensions.get_type_hints`` when that
package is installed, else with ``typing.get_type_hints``; on Python 3.11 and later the two
give the same hints for everything afdesk declares (no ``typing_extensions`` form is used
here: it is no dependency of afdesk, only of its test and development tools). Importing
``typing_extensions`` costs the window's start about 3 ms, 2% of a bare PySide6 window,
for nothing: :mod:`afdesk.rules`, :mod:`afdesk.encounter` and :mod:`afdesk.storage`
import this module before anything of theirs imports msgspec, and it imports msgspec
with ``typing_extensions`` out of sight. A GUI module that imports msgspec itself comes
after the model in the app's start (the model is imported first: a test holds it, in
tests/gui/test_start_deferrals.py).

A process that imported ``typing_extensions`` already (pytest-qt does, in the tests) keeps
msgspec's usual choice; so does one that imported msgspec already.
"""

import sys


def _import_msgspec() -> None:
    if "msgspec" in sys.modules or "typing_extensions" in sys.modules:
        return
    # None in sys.modules: the import raises ImportError, as if it were not installed
    sys.modules["typing_extensions"] = None  # type: ignore[assignment]
    try:
        import msgspec  # noqa: F401
    finally:
        del sys.modules["typing_extensions"]


_import_msgspec()
