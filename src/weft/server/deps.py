"""What routes get from the app: the running :class:`~weft.services.instance.Instance`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from weft.services.instance import Instance


def get_instance(request: Request) -> Instance:
    instance: Instance = request.app.state.instance
    return instance


InstanceDep = Annotated[Instance, Depends(get_instance)]

__all__ = ["InstanceDep", "get_instance"]
