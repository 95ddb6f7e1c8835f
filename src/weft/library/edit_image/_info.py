"""Get Information: the fields of GraphicsMagick's ``identify -verbose`` that the ``gm`` package parses, as far
as Pillow can tell them from the image's header."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from weft.library.edit_image._codec import GM_FORMATS, MAX_IMAGE_PIXELS, ImageError, check_size

_ORIENTATIONS = {
    1: "TopLeft",
    2: "TopRight",
    3: "BottomRight",
    4: "BottomLeft",
    5: "LeftTop",
    6: "RightTop",
    7: "RightBottom",
    8: "LeftBottom",
}
_COMPRESSION = {"PNG": "Zip", "JPEG": "JPEG", "GIF": "LZW", "BMP": "None", "WEBP": "WebP"}


def _type(mode: str) -> tuple[str, str]:
    """GraphicsMagick's ``Class`` and ``Type`` for a Pillow mode."""
    if mode == "P":
        return "PseudoClass", "palette"
    if mode in ("1",):
        return "PseudoClass", "bilevel"
    if mode in ("L", "I;16", "I", "F"):
        return "DirectClass", "grayscale"
    if mode in ("LA", "PA"):
        return "DirectClass", "grayscale with transparency"
    if "A" in mode:
        return "DirectClass", "true color with transparency"
    return "DirectClass", "true color"


def _file_size(size: int) -> str:
    """GraphicsMagick's ``Filesize``: bytes below 1 KiB, else binary units with one decimal (``1.2Ki``)."""
    value, unit = float(size), ""
    for next_unit in ("Ki", "Mi", "Gi"):
        if value < 1024:
            break
        value, unit = value / 1024, next_unit
    return f"{size}" if not unit else f"{value:.1f}{unit}"


def identify(data: bytes) -> dict[str, Any]:
    """The image's description, read from its header only (GraphicsMagick's ``identify -ping``)."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            check_size(*image.size)
            return _describe(image, len(data))
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:  # the warning when raised
        raise ImageError(
            f"The image is too large: more than the {MAX_IMAGE_PIXELS} pixels Weft decodes or creates ({error})"
        ) from error
    except Exception as error:  # Pillow raises many kinds for bad headers
        raise ImageError(f"The data is not an image that can be read ({error})") from error


def _describe(image: Image.Image, size: int) -> dict[str, Any]:
    name = image.format or "PNG"
    width, height = image.size
    image_class, image_type = _type(image.mode)
    depth = 16 if image.mode.startswith("I;16") else 8
    info: dict[str, Any] = {
        "Format": GM_FORMATS.get(name, name),
        "format": name,
        "Geometry": f"{width}x{height}",
        "size": {"width": width, "height": height},
        "Class": image_class,
        "Type": image_type,
        "Depth": f"{depth} bits-per-pixel component",
        "depth": depth,
    }
    dpi = image.info.get("dpi")
    if isinstance(dpi, tuple) and len(dpi) == 2:
        info["Resolution"] = f"{round(float(dpi[0]))}x{round(float(dpi[1]))} pixels/inch"
    orientation = image.getexif().get(0x0112)
    info.update(
        {
            "Filesize": _file_size(size),
            "Interlace": "Line" if image.info.get("interlace") or image.info.get("progressive") else "No",
            "Orientation": _ORIENTATIONS.get(orientation, "Unknown") if isinstance(orientation, int) else "Unknown",
            "Page geometry": f"{width}x{height}+0+0",
            "Compose": "Over",
            "Dispose": "Undefined",
            "Iterations": str(image.info.get("loop", 0)),
            "Compression": _COMPRESSION.get(name, str(image.info.get("compression", "None"))),
            "path": "unknown.jpg",
        }
    )
    return info
