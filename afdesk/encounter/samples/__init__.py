"""The bundled sample encounters, each built through Ops (so each is a valid encounter by
construction): ``river_ford`` (a battle), ``jade_river_mill`` (prepared with the zone
editor's Ops), ``rooftop_chase``, ``village_council`` (a dispute) and
``smugglers_warehouse`` (an infiltration). They stand above the model and every mode;
:mod:`afdesk.storage.samples` writes them to ``resources/encounters``."""
