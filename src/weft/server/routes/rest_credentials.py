"""``/rest/credentials``: credentials without their secrets (create and update take the data)."""

from __future__ import annotations

from fastapi import APIRouter

from weft.db.base import NotFoundError
from weft.server.deps import InstanceDep
from weft.server.schemas import CredentialIn, CredentialOut, CredentialUpdate, Deleted, Envelope

router = APIRouter(prefix="/credentials", tags=["credentials"])


@router.get("", summary="List credentials (never their data)")
async def list_credentials(instance: InstanceDep, type: str | None = None) -> Envelope[list[CredentialOut]]:
    infos = await instance.runner.db(instance.store.credentials.list, type=type)
    return Envelope(data=[CredentialOut.of(i) for i in infos])


@router.post("", status_code=201, summary="Create a credential; its data is stored encrypted")
async def create_credential(instance: InstanceDep, credential: CredentialIn) -> Envelope[CredentialOut]:
    info = await instance.runner.db(
        instance.store.credentials.create, credential.name, credential.type, credential.data, id=credential.id
    )
    return Envelope(data=CredentialOut.of(info))


@router.get("/{credential_id}", summary="Get a credential (without its data)")
async def get_credential(instance: InstanceDep, credential_id: str) -> Envelope[CredentialOut]:
    found = await instance.runner.db(instance.store.credentials.get, credential_id)
    if found is None:
        raise NotFoundError(f"Credential {credential_id!r} does not exist.", credential_id=credential_id)
    return Envelope(data=CredentialOut.of(found))


@router.patch("/{credential_id}", summary="Rename a credential or replace its data")
async def update_credential(
    instance: InstanceDep, credential_id: str, update: CredentialUpdate
) -> Envelope[CredentialOut]:
    info = await instance.runner.db(
        instance.store.credentials.update, credential_id, name=update.name, data=update.data
    )
    return Envelope(data=CredentialOut.of(info))


@router.delete("/{credential_id}", summary="Delete a credential")
async def delete_credential(instance: InstanceDep, credential_id: str) -> Envelope[Deleted]:
    if not await instance.runner.db(instance.store.credentials.delete, credential_id):
        raise NotFoundError(f"Credential {credential_id!r} does not exist.", credential_id=credential_id)
    return Envelope(data=Deleted(id=credential_id, deleted=True))
