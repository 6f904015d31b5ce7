"""Values set in QSettings only when they change.

QSettings rewrites its whole file for any value set, and flushes it to the disk twice.
Opening the file the GM had open last (every start) set the same three values again, and
closing the window set its unchanged geometry and docks: two flushes at every start and
every quit for nothing."""

from __future__ import annotations

__all__ = ["recent", "store", "store_list"]


def store(settings, key: str, value: object) -> None:
    """``key`` set to ``value`` (a string, or bytes as ``QByteArray``) unless it holds it
    already."""
    if settings.value(key) != value:
        settings.setValue(key, value)


def store_list(settings, key: str, items: list[str]) -> None:
    """:func:`store` for a list of strings (one comes back from the file as a string)."""
    if recent(settings, key) != items or not settings.contains(key):
        settings.setValue(key, items)


def recent(settings, key: str = "recent") -> list[str]:
    """The list of strings kept under ``key`` (the recent files by default)."""
    value = settings.value(key, [])
    if isinstance(value, str):
        value = [value]
    return [str(v) for v in (value or [])]
