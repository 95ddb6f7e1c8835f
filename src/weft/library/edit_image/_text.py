"""The Text operation: n8n's line wrapping, the font, and GraphicsMagick's gravity placement."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from weft.library.edit_image._ops import OperationError, color, rgba

#: Fonts tried, in order, when no font is chosen (n8n looks for Arial; Weft for DejaVu Sans, then Pillow's own).
DEFAULT_FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
)

_GRAVITY = {
    "west": {"north": "northwest", "middle": "west", "south": "southwest"},
    "center": {"north": "north", "middle": "center", "south": "south"},
    "east": {"north": "northeast", "middle": "east", "south": "southeast"},
}

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def wrap(text: str, line_length: float) -> str:
    """n8n's wrapping: words are added to a line until it would pass ``line_length`` characters."""
    lines: list[str] = []
    for text_line in text.split("\n"):
        current = ""
        for part in text_line.split(" "):
            if len(current) + len(part) + 1 > line_length:
                lines.append(current.strip())
                current = f"{part} "
                continue
            current += f"{part} "
        lines.append(current.strip())
    return "\n".join(lines)


def gravity(horizontal: Any, vertical: Any) -> str:
    """n8n's ``resolveGravity``: ``northwest`` for anything it does not know."""
    return _GRAVITY.get(str(horizontal), {}).get(str(vertical), "northwest")


@lru_cache(maxsize=32)
def load_font(path: str, size: int) -> Font:
    """The font at ``path`` (a TrueType/OpenType file), or the first default when ``path`` is empty."""
    if path:
        if not Path(path).is_file():
            raise OperationError("The selected font is not available. Select a font from the options.", "font")
        try:
            return ImageFont.truetype(path, size)
        except OSError as error:
            raise OperationError(
                "The selected font is not available. Select a font from the options.", "font"
            ) from error
    for candidate in DEFAULT_FONTS:
        if Path(candidate).is_file():
            return ImageFont.truetype(candidate, size)
    return ImageFont.load_default(size)


def draw_text(image: Image.Image, step: dict[str, Any], font_path: str, where: str) -> Image.Image:
    """``text`` wrapped, in ``fontColor`` at ``fontSize`` pixels, offset by ``positionX``/``positionY`` from
    the side(s) of the image ``where`` (a GraphicsMagick gravity) names."""
    image = rgba(image)
    size = max(int(step["fontSize"]), 1)
    font = load_font(font_path, size)
    text = wrap(str(step.get("text") or ""), float(step["lineLength"]))
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    pen = ImageDraw.Draw(layer)
    left, top, right, bottom = pen.multiline_textbbox((0, 0), text, font=font)
    width, height = right - left, bottom - top
    x, y = float(step["positionX"]), float(step["positionY"])
    if where.endswith("west"):
        at_x = x
    elif where.endswith("east"):
        at_x = image.width - width - x
    else:
        at_x = (image.width - width) / 2 + x
    if where.startswith("north"):
        at_y = y
    elif where.startswith("south"):
        at_y = image.height - height - y
    else:
        at_y = (image.height - height) / 2 + y
    pen.multiline_text((at_x - left, at_y - top), text, font=font, fill=color(step, "fontColor"))
    return Image.alpha_composite(image, layer)
