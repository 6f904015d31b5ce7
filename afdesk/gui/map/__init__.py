"""The map: a QGraphicsScene drawing the encounter model, one item per model object, and
the view that turns mouse and keyboard into Ops (:mod:`afdesk.gui.map.view`)."""
