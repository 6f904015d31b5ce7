"""Every change to an encounter is an Op: a frozen, serialisable record that
``Encounter.apply`` executes and inverts. Dice rolled for an Op are inside it, so replaying
an Op never rolls again.
"""

from afdesk.encounter.ops.base import Op

__all__ = ["Op"]
