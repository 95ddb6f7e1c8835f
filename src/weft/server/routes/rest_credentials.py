"""``/rest/credentials``: credentials, their secrets never sent back (n8n's credentials controller).

``includeData=true`` adds the data redacted as n8n does (every secret field is n8n's blank placeholder); a PATCH
that sends a placeholder keeps the stored value (n8n's ``unredact``). ``POST /rest/credentials/test`` sends the
type's declarative test request with the credential (the stored secrets where the body has placeholders).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from weft.db.base import NotFoundError
from weft.db.credentials import Credential
from weft.server.deps import InstanceDep
from weft.server.schemas import CredentialIn, CredentialOut, CredentialUpdate, Deleted, Envelope
from weft.services.credential_redaction import redact, unredact
from weft.services.credential_test_run import test_credential

router = APIRouter(prefix="/credentials", tags=["credentials"])


class CredentialWithData(CredentialOut):
    """A credential with its data redacted (``includeData=true``)."""

    data: dict[str, Any] | None = None

    @classmethod
    def redacted(cls, found: Credential) -> CredentialWithData:
        return cls.model_validate({**found.to_json(), "data": redact(found.type, found.data)})


class CredentialToTest(BaseModel):
    """n8n's ``ICredentialsDecrypted`` of a test: the stored credential (``id``) or a new one's type and data."""

    id: str | None = None
    name: str | None = None
    type: str
    data: dict[str, Any] = {}


class TestBody(BaseModel):
    credentials: CredentialToTest


class TestResult(BaseModel):
    status: str
    message: str


async def _stored(instance: InstanceDep, credential_id: str) -> Credential:
    found = await instance.runner.db(instance.store.credentials.get, credential_id)
    if found is None:
        raise NotFoundError(f"Credential {credential_id!r} does not exist.", credential_id=credential_id)
    return found


@router.get(
    "", summary="List credentials (with includeData=true, their data redacted)", response_model_exclude_unset=True
)
async def list_credentials(
    instance: InstanceDep, type: str | None = None, includeData: bool = False
) -> Envelope[list[CredentialWithData]]:
    infos = await instance.runner.db(instance.store.credentials.list, type=type)
    if not includeData:
        return Envelope(data=[CredentialWithData.model_validate(i.to_json()) for i in infos])
    found = [await _stored(instance, i.id) for i in infos]
    return Envelope(data=[CredentialWithData.redacted(c) for c in found])


@router.post("", status_code=201, summary="Create a credential; its data is stored encrypted")
async def create_credential(instance: InstanceDep, credential: CredentialIn) -> Envelope[CredentialOut]:
    info = await instance.runner.db(
        instance.store.credentials.create, credential.name, credential.type, credential.data, id=credential.id
    )
    return Envelope(data=CredentialOut.of(info))


@router.post("/test", summary="Test a credential with its type's test request (n8n's {status, message})")
async def test(instance: InstanceDep, body: TestBody) -> Envelope[TestResult]:
    given = body.credentials
    if not given.id:
        return Envelope(data=TestResult.model_validate(await test_credential(given.type, given.data)))
    stored = await _stored(instance, given.id)
    result = await test_credential(stored.type, unredact(given.data, stored.data, stored.type), stored.data)
    return Envelope(data=TestResult.model_validate(result))


@router.get(
    "/{credential_id}",
    summary="Get a credential (with includeData=true, its data redacted)",
    response_model_exclude_unset=True,
)
async def get_credential(
    instance: InstanceDep, credential_id: str, includeData: bool = False
) -> Envelope[CredentialWithData]:
    found = await _stored(instance, credential_id)
    if includeData:
        return Envelope(data=CredentialWithData.redacted(found))
    return Envelope(data=CredentialWithData.model_validate(found.to_json()))


@router.patch("/{credential_id}", summary="Rename a credential or replace its data (placeholders keep secrets)")
async def update_credential(
    instance: InstanceDep, credential_id: str, update: CredentialUpdate
) -> Envelope[CredentialOut]:
    data = update.data
    if data is not None:
        stored = await _stored(instance, credential_id)
        data = unredact(data, stored.data, stored.type)
    info = await instance.runner.db(instance.store.credentials.update, credential_id, name=update.name, data=data)
    return Envelope(data=CredentialOut.of(info))


@router.delete("/{credential_id}", summary="Delete a credential")
async def delete_credential(instance: InstanceDep, credential_id: str) -> Envelope[Deleted]:
    if not await instance.runner.db(instance.store.credentials.delete, credential_id):
        raise NotFoundError(f"Credential {credential_id!r} does not exist.", credential_id=credential_id)
    return Envelope(data=Deleted(id=credential_id, deleted=True))
