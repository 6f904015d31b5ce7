"""Typed GM commands: one object per thing the GM can ask of the encounter or of a
character, bound by the menus, the docks' buttons, the map and the shortcuts alike.

A command answers two questions and does one thing:

- ``available(doc, who) -> Availability``: may it run now, and if not, the model's reason
  (the menus disable it and show the reason; nothing in a widget decides it);
- ``offered(doc, who)``: whether a menu lists it at all for ``who`` (Creep only for a
  hidden character, the attacks only against someone else while another acts, ...);
- ``trigger(ctx, who)``: do it, through the :class:`CommandContext` (push an Op, open a
  dialog, ask the GM to confirm).

``who`` is a character id for character commands and "" for the encounter's. Every command
is registered once in :data:`REGISTRY` under a stable id (the id a menu entry carries);
looking up an id nobody registered raises :class:`UnknownCommand`. Like napari's
``action_manager``: the binding site names the command, the command owns the behaviour.
"""

from afdesk.gui.commands.base import (
    AVAILABLE,
    REGISTRY,
    Availability,
    Command,
    CommandContext,
    CommandRegistry,
    DialogCommand,
    OpCommand,
    UnknownCommand,
    show_availability,
)
from afdesk.gui.commands.character import (
    ADD_STATE,
    BLEED,
    CHECKS,
    DUPLICATE,
    EDIT,
    HESITATED,
    LEAVE,
    MOMENTUM,
    REMOVE,
    REMOVE_STATE,
    RESOLVE,
    SCREEN,
    SIMPLE_ACTIONS,
    SIMPLE_SNAPS,
    TARGETS,
    TOGGLE_DEFEND,
    TOGGLE_GUARD,
    TOGGLE_HESITATE,
    TOGGLE_SCREEN,
    CheckCommand,
    TargetCommand,
    action_commands,
    snap_commands,
)
from afdesk.gui.commands.encounter import (
    ADD_CHARACTER,
    ADVANCE,
    DEAL,
    ENCOUNTER,
    END,
    END_EXCHANGE,
    MODES,
    NEXT_TURN,
    PERSEVERE,
    PLAY_CARDS,
    SETTINGS,
    TRIM,
    DealCommand,
    deal_refusal,
    trim_words,
)

__all__ = [
    "ADD_CHARACTER",
    "ADD_STATE",
    "ADVANCE",
    "AVAILABLE",
    "BLEED",
    "CHECKS",
    "DEAL",
    "DUPLICATE",
    "EDIT",
    "ENCOUNTER",
    "END",
    "END_EXCHANGE",
    "HESITATED",
    "LEAVE",
    "MODES",
    "MOMENTUM",
    "NEXT_TURN",
    "PERSEVERE",
    "PLAY_CARDS",
    "REGISTRY",
    "REMOVE",
    "REMOVE_STATE",
    "RESOLVE",
    "SCREEN",
    "SETTINGS",
    "SIMPLE_ACTIONS",
    "SIMPLE_SNAPS",
    "TARGETS",
    "TOGGLE_DEFEND",
    "TOGGLE_GUARD",
    "TOGGLE_HESITATE",
    "TOGGLE_SCREEN",
    "TRIM",
    "Availability",
    "CheckCommand",
    "Command",
    "CommandContext",
    "CommandRegistry",
    "DealCommand",
    "DialogCommand",
    "OpCommand",
    "TargetCommand",
    "UnknownCommand",
    "action_commands",
    "deal_refusal",
    "show_availability",
    "snap_commands",
    "trim_words",
]
