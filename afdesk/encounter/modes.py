"""placeholder"""

from afdesk.encounter.parts import Part


def mode_parts() -> tuple[Part, ...]:
    return ()
