"""Encounter files: format, schema versions and migrations, atomic saves, the crash journal.

Pure Python, no Qt.
"""
