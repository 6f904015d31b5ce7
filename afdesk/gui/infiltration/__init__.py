"""The infiltration in the GM's window (E16, N1-N8): the map is its main view, so it
registers no board; its extras are a map layer (guardians unaware or alerted, watch steps,
the decoys seen and by whom, the alarm, objectives, who got out) and the Infiltration
dock (watch steps to confirm, decoys to eliminate or reveal at, setup, objectives, exits)
and, in the check dialog, the target's perception against a surprise attack (N7);
on the players' map, the alarm once raised and the end (the decoys stay ownerless there:
the mode keeps their owners secret, N2)."""

from afdesk.encounter import installed  # noqa: F401 - declares the modes (Mode.CHASE, ...)
from afdesk.encounter.state import Mode
from afdesk.gui.modes import ModeScreens, register


def _install(window):
    from afdesk.gui.infiltration.install import install

    return install(window)


def _check_step(enc, source):
    from afdesk.gui.infiltration.perception import PerceptionPanel

    return PerceptionPanel(enc, source)


def _player_install(players):
    from afdesk.gui.infiltration.layer import InfiltrationLayer

    return InfiltrationLayer(players.view, player=True)


register(
    ModeScreens(
        Mode.INFILTRATION,
        sample="smugglers-warehouse.afenc",
        sample_label="Smugglers' warehouse (an infiltration)",
        install=_install,
        docks=("infiltrationDock",),
        player_install=_player_install,
        check_step=_check_step,
    )
)
