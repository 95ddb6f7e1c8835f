"""GraphicsMagick's ``-resize WxH<flag>`` sizes (``GetMagickGeometry``), for n8n's resize options."""

from __future__ import annotations

import math


def resize_size(width: int, height: int, target_w: float, target_h: float, option: str) -> tuple[int, int]:
    """The size GraphicsMagick resizes a ``width`` x ``height`` image to for n8n's ``resizeOption``.

    ``maximumArea`` (n8n's default, GraphicsMagick's ``@``) scales the image, up or down, to an area of
    ``target_w * target_h`` pixels keeping its aspect ratio; ``minimumArea`` (``^``) fills the box; the others fit
    the image in the box (``onlyIfLarger`` only shrinks, ``onlyIfSmaller`` only enlarges); ``percent`` scales
    each side by its own percentage; ``ignoreAspectRatio`` (``!``) is exact.
    """
    if option == "ignoreAspectRatio":
        return _at_least_one(target_w, target_h)
    if option == "percent":
        return _at_least_one(math.floor(target_w * width / 100 + 0.5), math.floor(target_h * height / 100 + 0.5))
    if option not in ("minimumArea", "onlyIfLarger", "onlyIfSmaller"):  # maximumArea and anything else: "@"
        scale = 1 / math.sqrt(width * height / max(target_w * target_h, 1e-9))
        return _at_least_one(math.floor(width * scale + 0.25), math.floor(height * scale + 0.25))
    scales = (target_w / width, target_h / height)
    scale = max(scales) if option == "minimumArea" else min(scales)
    new_w, new_h = math.floor(scale * width + 0.5), math.floor(scale * height + 0.5)
    if option == "onlyIfLarger":
        new_w, new_h = min(new_w, width), min(new_h, height)
    elif option == "onlyIfSmaller":
        new_w, new_h = max(new_w, width), max(new_h, height)
    return _at_least_one(new_w, new_h)


def _at_least_one(width: float, height: float) -> tuple[int, int]:
    return max(int(width), 1), max(int(height), 1)
