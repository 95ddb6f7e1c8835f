"""Crypto (``n8n-nodes-base.crypto`` v1, 2): hash, HMAC, sign, generate random strings and (2, as n8n 2.41.1)
encrypt/decrypt (recorded: n470-n475, n477).

Hashes and HMACs of text or of a binary property (read chunk by chunk through the node's binary helpers; the
item's binary is then dropped, as n8n does), in hex or base64; signatures with a PEM private key (RSA PKCS#1
v1.5 or ECDSA, as Node's ``createSign``); random UUIDs and ``hex``/``base64``/``ascii`` strings from
``randomBytes``. Version 1 takes the HMAC secret and the private key as parameters, version 2 from the ``crypto``
credential. Version 2's symmetric encryption is n8n 2.41.1's format: ``[0x01][salt 16][iv 12][tag 16][ciphertext]``
in base64, the key from scrypt (N=65536, r=8, p=1) of the credential's passphrase; asymmetric is RSA-OAEP-SHA256.
The result goes to ``dataPropertyName`` (a dot path).
"""

from __future__ import annotations

import asyncio
import base64
import copy
import hashlib
import hmac
import secrets
import uuid
from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.library.core._crypto_cipher import CipherError, decrypt, encrypt, sign
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput

#: n8n's hash type names → hashlib's.
HASHES = {
    "MD5": "md5",
    "SHA1": "sha1",
    "SHA256": "sha256",
    "SHA3-256": "sha3_256",
    "SHA3-384": "sha3_384",
    "SHA3-512": "sha3_512",
    "SHA384": "sha384",
    "SHA512": "sha512",
}
#: The credential field each action needs, and n8n's error without it.
_NEEDS = {
    "hmac": ("hmacSecret", "an HMAC secret", "HMAC secret"),
    "sign": ("signPrivateKey", "a private key", "private key"),
    "symmetric": ("encryptionPassphrase", "an Encryption Passphrase", "encryption passphrase"),
    "encrypt": ("encryptionPublicKey", "an Encryption Public Key", "encryption public key"),
    "decrypt": ("encryptionPrivateKey", "an Encryption Private Key", "encryption private key"),
}


class Crypto(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.crypto",
        display_name="Crypto",
        versions=(1, 2),
        description="Provide cryptographic utilities",
        group=("transform",),
        credentials=("crypto",),
        usable_as_tool=True,
        defaults={
            "action": "hash",
            "binaryData": False,
            "binaryPropertyName": "data",
            "value": "",
            "dataPropertyName": "data",
            "encoding": "hex",
            "algorithm": "",
            "encodingType": "uuid",
            "stringLength": 32,
            "mode": "symmetric",
            "cipher": "aes-256-gcm",
            "secret": "",
            "privateKey": "",
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        action = ctx.get_node_parameter("action", 0)
        version = float(ctx.node.typeVersion)
        secrets_ = await _credential_secrets(ctx, action) if version >= 2 else {}
        out: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                out.append(await _run_item(ctx, action, index, item, secrets_))
            except NodeError as error:
                if not ctx.continue_on_fail():
                    raise
                message: Any = error.message
                if version >= 2:
                    message = {"message": error.message, "name": error.n8n_name}
                out.append({"json": {"error": message}, "pairedItem": {"item": index}})
        return [out]


async def _credential_secrets(ctx: ExecuteContext, action: str) -> dict[str, Any]:
    """Version 2 reads secrets and keys from the ``crypto`` credential, checked once before any item."""
    if action not in ("hmac", "sign", "encrypt", "decrypt"):
        return {}
    credentials = await ctx.get_credentials("crypto")
    need = action
    if action in ("encrypt", "decrypt") and ctx.get_node_parameter("mode", 0) == "symmetric":
        need = "symmetric"
    key, article, noun = _NEEDS[need]
    if not credentials.get(key):
        raise NodeOperationError(
            ctx.node.name,
            f"No {noun} set in credentials. Please add {article} to your Crypto credentials.",
            description="Edit the node's Crypto credential.",
        )
    return dict(credentials)


async def _run_item(ctx: ExecuteContext, action: str, index: int, item: Item, creds: dict[str, Any]) -> Item:
    prop = str(ctx.get_node_parameter("dataPropertyName", index))
    value = ctx.get_node_parameter("value", index, "")
    binary_processed = False
    new_value: Any = None
    if action == "generate":
        new_value = _generate(ctx, index)
    elif action in ("hash", "hmac"):
        new_value, binary_processed = await _digest(ctx, action, index, value, creds)
    elif action == "sign":
        key = ctx.get_node_parameter("privateKey", index) if not creds else creds["signPrivateKey"]
        new_value = _sign(ctx, index, _text(ctx, value), str(key))
    elif action in ("encrypt", "decrypt"):
        new_value = await _cipher(ctx, action, index, _text(ctx, value), creds)
    new_item: Item = {
        "json": copy.deepcopy(item["json"]) if "." in prop else dict(item["json"]),
        "pairedItem": {"item": index},
    }
    if "binary" in item and not binary_processed:
        new_item["binary"] = item["binary"]
    new_item["json"][prop] = new_value  # lodash ``set(item, ['json', prop])``: the name is one key, dots and all
    return new_item


def _text(ctx: ExecuteContext, value: Any) -> str:
    if not isinstance(value, str):
        raise NodeOperationError(
            ctx.node.name,
            'The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView.',
            description="Give 'Value' a text (turn numbers and objects into text first).",
        )
    return value


def _generate(ctx: ExecuteContext, index: int) -> str:
    kind = ctx.get_node_parameter("encodingType", index)
    if kind == "uuid":
        return str(uuid.uuid4())
    length = int(ctx.get_node_parameter("stringLength", index))
    data = secrets.token_bytes(length)
    if kind == "base64":
        return "".join(ch for ch in base64.b64encode(data).decode() if ch.isalnum())[:length]
    if kind == "hex":
        return data.hex()[:length]
    return "".join(chr(byte & 0x7F) for byte in data)[:length]  # Node's "ascii" decoding drops the high bit


async def _digest(ctx: ExecuteContext, action: str, index: int, value: Any, creds: dict[str, Any]) -> tuple[str, bool]:
    kind = str(ctx.get_node_parameter("type", index, "MD5" if float(ctx.node.typeVersion) < 2 else "SHA256"))
    encoding = ctx.get_node_parameter("encoding", index)
    name = HASHES.get(kind.upper(), kind.lower().replace("-", "_"))
    if name not in hashlib.algorithms_available:
        raise NodeOperationError(ctx.node.name, "Digest method not supported", description="Choose a listed type.")
    if action == "hash":
        hasher: Any = hashlib.new(name)
    else:
        secret = creds["hmacSecret"] if creds else ctx.get_node_parameter("secret", index)
        hasher = hmac.new(str(secret).encode(), digestmod=name)
    binary = bool(ctx.get_node_parameter("binaryData", index, False))
    if binary:
        entry = ctx.assert_binary_data(index, ctx.get_node_parameter("binaryPropertyName", index))
        async for chunk in ctx.get_binary_stream(entry):
            hasher.update(chunk)
    else:
        hasher.update(_text(ctx, value).encode())
    digest: bytes = hasher.digest()
    return (base64.b64encode(digest).decode() if encoding == "base64" else digest.hex()), binary


def _sign(ctx: ExecuteContext, index: int, value: str, key: str) -> str:
    algorithm = str(ctx.get_node_parameter("algorithm", index))
    encoding = ctx.get_node_parameter("encoding", index)
    try:
        signature = sign(value.encode(), key, algorithm)
    except CipherError as error:
        raise NodeOperationError(ctx.node.name, str(error), description=error.fix, item_index=index) from None
    return base64.b64encode(signature).decode() if encoding == "base64" else signature.hex()


async def _cipher(ctx: ExecuteContext, action: str, index: int, value: str, creds: dict[str, Any]) -> str:
    mode = ctx.get_node_parameter("mode", index)
    cipher = str(ctx.get_node_parameter("cipher", index))
    secret = creds.get(
        "encryptionPassphrase"
        if mode == "symmetric"
        else ("encryptionPublicKey" if action == "encrypt" else "encryptionPrivateKey")
    )
    run = encrypt if action == "encrypt" else decrypt
    try:  # scrypt and RSA take a while: off the event loop
        return await asyncio.to_thread(run, value, str(secret), str(mode), cipher)
    except CipherError as error:
        raise NodeOperationError(ctx.node.name, str(error), description=error.fix, item_index=index) from None


__all__ = ["HASHES", "Crypto"]
