"""Small pictures for the tests that must not import Qt (the pure layers' tests): a PNG
written byte by byte (signature, IHDR, one IDAT, IEND), and a minimal ``.uvtt`` document."""

from __future__ import annotations

import base64
import json
import struct
import zlib


def _chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(kind + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def png_bytes(width: int, height: int, colour: tuple[int, int, int] = (40, 120, 60)) -> bytes:
    """A ``width`` x ``height`` RGB PNG of one colour, with a darker diagonal (so a cut or
    a turn shows)."""
    rows = []
    for y in range(height):
        row = bytearray([0])  # filter: none
        for x in range(width):
            shade = 0.5 if x == y else 1.0
            row += bytes(int(c * shade) for c in colour)
        rows.append(bytes(row))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"".join(rows)))
        + _chunk(b"IEND", b"")
    )


def uvtt_document(
    *,
    cols: int = 15,
    rows: int = 15,
    ppg: int = 4,
    walls: list[list[tuple[float, float]]] | None = None,
    portals: list[dict] | None = None,
    image: bytes | None = None,
) -> dict:
    """A Universal VTT document (as Dungeondraft writes it) around a generated PNG."""
    picture = png_bytes(cols * ppg, rows * ppg) if image is None else image
    return {
        "format": 0.3,
        "resolution": {
            "map_origin": {"x": 0, "y": 0},
            "map_size": {"x": cols, "y": rows},
            "pixels_per_grid": ppg,
        },
        "line_of_sight": [[{"x": x, "y": y} for x, y in line] for line in (walls or [])],
        "portals": portals or [],
        "lights": [],
        "environment": {"baked_lighting": True, "ambient_light": "ffffffff"},
        "image": base64.b64encode(picture).decode("ascii"),
    }


def uvtt_bytes(**kwargs) -> bytes:
    return json.dumps(uvtt_document(**kwargs)).encode()
