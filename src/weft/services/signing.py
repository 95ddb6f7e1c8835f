"""Signing resume URLs: ``/webhook-waiting/<id>?signature=<HMAC-SHA256 of the id>`` (n8n 2.41's signed URLs).

The HMAC key is derived from the instance's encryption key, so every process of the instance (and every
restart) signs and verifies alike without storing a token per execution. Verification is constant-time.
"""

from __future__ import annotations

import hashlib
import hmac


class ResumeSigner:
    """Signs execution ids and verifies signatures."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    @classmethod
    def from_encryption_key(cls, key: str) -> ResumeSigner:
        """A signer keyed by a secret derived (HMAC-SHA256, fixed label) from the instance encryption key."""
        return cls(hmac.new(key.encode(), b"weft resume-url signing v1", hashlib.sha256).digest())

    def sign(self, execution_id: str) -> str:
        """64 hex characters."""
        return hmac.new(self._secret, str(execution_id).encode(), hashlib.sha256).hexdigest()

    def verify(self, execution_id: str, signature: str | None) -> bool:
        """Whether ``signature`` signs ``execution_id``; ``None`` or malformed signatures are invalid."""
        if not signature:
            return False
        # n8n accepts ``<token>/<suffix>`` for backward compatibility
        given = signature.split("/", 1)[0].strip().lower()
        return hmac.compare_digest(given.encode(), self.sign(execution_id).encode())


__all__ = ["ResumeSigner"]
