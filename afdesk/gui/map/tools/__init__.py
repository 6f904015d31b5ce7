"""Map tools: each reads the GM's mouse and keys on the map while it is the view's active
tool (as Tiled's AbstractTool and MapScene::setSelectedTool). A new tool (the zone
brush, a measuring tape) is one subclass of :class:`MapTool` in its own module, added to
the view's tools (``MapView.add_tool``)."""

from afdesk.gui.map.tools.base import MapTool
from afdesk.gui.map.tools.facing import FacingTool
from afdesk.gui.map.tools.move import MoveTool
from afdesk.gui.map.tools.pan import PanTool

__all__ = ["FacingTool", "MapTool", "MoveTool", "PanTool"]
