"""The bundled sample encounters, written from the code that builds them.

``python -m afdesk.storage.samples`` rewrites ``resources/encounters/river-ford.afenc``
from :func:`build`, ``rooftop-chase.afenc`` from :func:`build_chase` and
``jade-river-mill.afenc`` (prepared with the zone editor) from :func:`build_mill`,
``village-council.afenc`` (a dispute, P1-P9) from :func:`build_council` and
``smugglers-warehouse.afenc`` (an infiltration, N1-N8) from :func:`build_warehouse`; a
test fails while a shipped file is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

from afdesk.encounter.model import Encounter
from afdesk.encounter.samples import jade_river_mill as editor_sample
from afdesk.encounter.samples import river_ford as sample
from afdesk.encounter.samples import rooftop_chase as chase_sample
from afdesk.encounter.samples import smugglers_warehouse as infiltration_sample
from afdesk.encounter.samples import village_council as dispute_sample
from afdesk.paths import chase_sample_encounter, resource_dir, sample_encounter
from afdesk.storage.files import save
from afdesk.storage.tilesets import tileset


def build() -> Encounter:
    """The river-ford sample, freshly built through Ops on the bundled wilderness tiles."""
    return sample.build(tileset("wilderness"))


def write_river_ford(path: Path | None = None) -> Path:
    """Save the river-ford sample (to the bundled file by default); returns its path."""
    path = sample_encounter() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)  # regenerated, not upgraded: no NAME.vN.bak beside it
    save(path, build().state())
    return path


def build_chase() -> Encounter:
    """The rooftop-chase sample, freshly built through Ops on the bundled town tiles."""
    return chase_sample.build(tileset("town"))


def write_rooftop_chase(path: Path | None = None) -> Path:
    """Save the rooftop-chase sample (to the bundled file by default); returns its path."""
    path = chase_sample_encounter() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    save(path, build_chase().state())
    return path


def mill_encounter() -> Path:
    """The bundled sample prepared with the zone editor."""
    return resource_dir() / "encounters" / "jade-river-mill.afenc"


def build_mill() -> Encounter:
    """The Jade river mill sample, prepared through the zone editor's Ops."""
    return editor_sample.build(tileset("wilderness"))


def write_mill(path: Path | None = None) -> Path:
    """Save the Jade river mill sample (to the bundled file by default); returns its path."""
    path = mill_encounter() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    save(path, build_mill().state())
    return path


def council_encounter() -> Path:
    """The bundled dispute sample."""
    return resource_dir() / "encounters" / "village-council.afenc"


def build_council() -> Encounter:
    """The village council dispute, freshly built through Ops on the bundled town tiles."""
    return dispute_sample.build(tileset("town"))


def warehouse_encounter() -> Path:
    """The bundled infiltration sample."""
    return resource_dir() / "encounters" / "smugglers-warehouse.afenc"


def build_warehouse() -> Encounter:
    """The smugglers' warehouse infiltration, built through Ops on the bundled town tiles."""
    return infiltration_sample.build(tileset("town"))


def _write(path: Path, enc: Encounter) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    save(path, enc.state())
    return path


def write_council(path: Path | None = None) -> Path:
    """Save the village council sample (to the bundled file by default)."""
    return _write(council_encounter() if path is None else path, build_council())


def write_warehouse(path: Path | None = None) -> Path:
    """Save the smugglers' warehouse sample (to the bundled file by default)."""
    return _write(warehouse_encounter() if path is None else path, build_warehouse())


def main() -> int:
    """``python -m afdesk.storage.samples``: rewrite the bundled samples."""
    print(f"wrote {write_river_ford()}")
    print(f"wrote {write_rooftop_chase()}")
    print(f"wrote {write_mill()}")
    print(f"wrote {write_council()}")
    print(f"wrote {write_warehouse()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
