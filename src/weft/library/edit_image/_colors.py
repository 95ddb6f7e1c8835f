"""Colors as GraphicsMagick reads n8n's color parameters.

n8n passes its color strings to GraphicsMagick untouched. GraphicsMagick reads ``#rrggbbaa`` with the last byte as
*opacity*-inverted: ``00`` is opaque and ``ff`` transparent (so n8n's defaults ``#ff000000`` for Draw and
``#ffffff00`` for Create are opaque red and opaque white). Named colors and ``rgb()``/``rgba()`` are read by Pillow;
``none`` and ``transparent`` are fully transparent.
"""

from __future__ import annotations

import re

from PIL import ImageColor

RGBA = tuple[int, int, int, int]

_HEX = re.compile(r"#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")


class ColorError(ValueError):
    """A color string that cannot be read."""


def parse_color(value: object) -> RGBA:
    """The RGBA of an n8n color parameter (GraphicsMagick's reading of ``#rrggbbaa``)."""
    text = str(value).strip()
    found = _HEX.fullmatch(text)
    if found:
        digits = found.group(1)
        if len(digits) in (3, 4):
            digits = "".join(c * 2 for c in digits)
        channels = [int(digits[i : i + 2], 16) for i in range(0, len(digits), 2)]
        opacity = channels[3] if len(channels) == 4 else 0
        return channels[0], channels[1], channels[2], 255 - opacity
    if text.lower() in ("none", "transparent"):
        return 0, 0, 0, 0
    try:
        color = ImageColor.getcolor(text, "RGBA")
    except ValueError as error:
        raise ColorError(f"Unrecognized color '{text}'") from error
    assert isinstance(color, tuple)
    return color[0], color[1], color[2], color[3]
