"""Encryption of credentials at rest (Fernet: AES-128-CBC with an HMAC-SHA256, from ``cryptography``).

The key is any string: ``WEFT_ENCRYPTION_KEY``, or one generated once into ``<user folder>/config``
as ``{"encryptionKey": …}`` with mode 0600, like n8n's ``~/.n8n/config``. The Fernet key is derived
from it with SHA-256, so n8n-style keys (24 random bytes in base64) work unchanged.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cryptography.fernet import Fernet


from weft.db.files import private_folder
from weft.errors import ConfigurationError

CONFIG_FILE = "config"


class DecryptionError(ConfigurationError):
    """Stored data cannot be decrypted with the current key: the key changed since it was written."""


class Cipher:
    """Encrypts and decrypts JSON objects with one key."""

    def __init__(self, key: str) -> None:
        if not key:
            raise ConfigurationError("The encryption key is empty; set WEFT_ENCRYPTION_KEY or remove it.")
        self._key = base64.urlsafe_b64encode(hashlib.sha256(key.encode("utf-8")).digest())
        self._fernet_instance: Fernet | None = None

    @property
    def _fernet(self) -> Fernet:
        # imported on first use: `cryptography` costs ~0.2 s to import, and most commands never decrypt
        if self._fernet_instance is None:
            from cryptography.fernet import Fernet

            self._fernet_instance = Fernet(self._key)
        return self._fernet_instance

    def encrypt(self, data: dict[str, Any]) -> str:
        """The Fernet token (ASCII) of ``data`` as JSON."""
        return self._fernet.encrypt(json.dumps(data, separators=(",", ":")).encode("utf-8")).decode("ascii")

    def decrypt(self, token: str, *, what: str = "data") -> dict[str, Any]:
        """The JSON object inside ``token``; :class:`DecryptionError` names ``what`` when the key is wrong."""
        from cryptography.fernet import InvalidToken

        try:
            plain = self._fernet.decrypt(token.encode("ascii"))
        except (InvalidToken, ValueError):
            raise DecryptionError(
                f"Cannot decrypt {what}: it was encrypted with a different key. Set WEFT_ENCRYPTION_KEY "
                f"(or the 'encryptionKey' in <user folder>/{CONFIG_FILE}) to the key used when it was saved."
            ) from None
        value = json.loads(plain)
        if not isinstance(value, dict):
            raise DecryptionError(f"Cannot decrypt {what}: the stored value is not a JSON object.")
        return value


def load_encryption_key(user_folder: Path, env_key: str | None = None) -> str:
    """The instance's key: ``env_key`` if given, else the one in ``<user_folder>/config`` (created once).

    A key given in the environment must match the one in the config file when both exist, as in n8n:
    otherwise credentials saved earlier could never be decrypted.
    """
    path = user_folder / CONFIG_FILE
    stored = _read_key(path)
    if env_key:
        if stored is not None and not hmac.compare_digest(stored.encode(), env_key.encode()):
            raise ConfigurationError(
                f"Mismatching encryption keys: the key in {str(path)!r} differs from WEFT_ENCRYPTION_KEY. "
                "Use the key from the config file, or remove the file if nothing was saved with it."
            )
        return env_key
    if stored is not None:
        with contextlib.suppress(PermissionError):
            os.chmod(path, 0o600)
        return stored
    return _write_key(path, base64.b64encode(secrets.token_bytes(24)).decode("ascii"))


def _read_key(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        key = json.loads(text).get("encryptionKey")
    except (json.JSONDecodeError, AttributeError):
        key = None
    if not isinstance(key, str) or not key:
        raise ConfigurationError(
            f"{str(path)!r} has no 'encryptionKey': write "
            '{"encryptionKey": "…"} into it or set WEFT_ENCRYPTION_KEY.'
        )
    return key


def _write_key(path: Path, key: str) -> str:
    """Create the config file holding ``key``, unless another process won the race: return the file's key."""
    private_folder(path.parent)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        json.dump({"encryptionKey": key}, file, indent=2)
    try:
        os.link(tmp, path)  # atomic, complete, and fails if the file exists
    except FileExistsError:
        return _read_key(path) or key
    finally:
        tmp.unlink()
    return key


__all__ = ["CONFIG_FILE", "Cipher", "DecryptionError", "load_encryption_key"]
