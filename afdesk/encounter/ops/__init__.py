"""Every change to an encounter is an Op: a frozen, serialisable record that
``Encounter.apply`` executes and inverts. Dice rolled for an Op are inside it, so replaying
an Op never rolls again.

Every Op registers itself (:mod:`afdesk.encounter.ops.registry`); decoding imports every
module of this package first, so all of afdesk's own Ops are known before a file is read.
"""

from afdesk.encounter.ops.base import Op

__all__ = ["Op"]
