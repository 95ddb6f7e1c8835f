"""Reading and writing images, bounded: a decoded image may hold at most :data:`MAX_IMAGE_PIXELS` pixels.

The size is read from the file's header before any pixel is decoded, so a small file that declares a huge canvas
(a decompression bomb) is refused without allocating it. Pillow's own limit (``Image.MAX_IMAGE_PIXELS``, global)
is set to the same number: Pillow then warns above it and refuses twice it (``DecompressionBombError``); both,
and the warning when warnings are errors, end as the same :class:`ImageError`.
"""

from __future__ import annotations

import io

from PIL import Image, ImageOps, UnidentifiedImageError

#: The most pixels an image may have, read or made (about 8000 x 6000; 200 MB as RGBA).
MAX_IMAGE_PIXELS = 50_000_000

Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS

#: Pillow's format names for n8n's ``format`` option (``tif`` is accepted as n8n 2.41 accepts it).
PIL_FORMATS = {"bmp": "BMP", "gif": "GIF", "jpeg": "JPEG", "png": "PNG", "tiff": "TIFF", "tif": "TIFF", "webp": "WEBP"}

#: Pillow's format names and what GraphicsMagick calls them in ``identify`` (``Format: PNG (…)``).
GM_FORMATS = {
    "PNG": "PNG (Portable Network Graphics)",
    "JPEG": "JPEG (Joint Photographic Experts Group JFIF format)",
    "GIF": "GIF (CompuServe graphics interchange format)",
    "BMP": "BMP (Microsoft Windows bitmap image)",
    "TIFF": "TIFF (Tagged Image File Format)",
    "WEBP": "WEBP (WebP Image Format)",
}


class ImageError(Exception):
    """The bytes are not an image Weft can read, or the image is too large."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def check_size(width: int, height: int) -> None:
    """Refuse a canvas of more than :data:`MAX_IMAGE_PIXELS` pixels (or an empty one)."""
    if width * height > MAX_IMAGE_PIXELS:
        raise ImageError(
            f"The image is too large: {width}x{height} is {width * height} pixels, more than the "
            f"{MAX_IMAGE_PIXELS} pixels Weft decodes or creates"
        )


def decode(data: bytes) -> tuple[Image.Image, str]:
    """The image in ``data`` (its first frame, turned upright by its EXIF orientation) and its format."""
    try:
        with Image.open(io.BytesIO(data)) as source:
            check_size(*source.size)
            source_format = source.format or "PNG"
            source.load()
            image = ImageOps.exif_transpose(source)
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:  # the warning when raised
        raise ImageError(
            f"The image is too large: more than the {MAX_IMAGE_PIXELS} pixels Weft decodes or creates ({error})"
        ) from error
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise ImageError(f"The data is not an image that can be read ({error})") from error
    return image, source_format


def encode(image: Image.Image, pil_format: str, quality: float | None) -> bytes:
    """``image`` written as ``pil_format``; ``quality`` 0-100 as GraphicsMagick's ``-quality``."""
    out = io.BytesIO()
    image = _for_format(image, pil_format)
    options: dict[str, object] = {}
    if quality is not None:
        q = int(quality) or 75  # gm's ``quality(val || 75)``
        if pil_format in ("JPEG", "WEBP"):
            options["quality"] = max(1, min(q, 100))
        elif pil_format == "PNG":
            options["compress_level"] = min(q // 10, 9)  # GraphicsMagick: the tens digit is the zlib level
    image.save(out, format=pil_format, **options)
    return out.getvalue()


def _for_format(image: Image.Image, pil_format: str) -> Image.Image:
    """``image`` in a mode ``pil_format`` can store (alpha dropped for JPEG and BMP, as GraphicsMagick does)."""
    if pil_format in ("JPEG", "BMP"):
        return image if image.mode in ("RGB", "L") else image.convert("RGB")
    if pil_format == "GIF":
        return image if image.mode in ("P", "L") else image.convert("RGBA")
    if image.mode not in ("RGB", "RGBA", "L", "LA"):
        return image.convert("RGBA")
    return image
