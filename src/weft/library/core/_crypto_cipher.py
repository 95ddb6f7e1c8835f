"""The Crypto node's key operations: Node's ``createSign`` with a PEM key, and n8n 2.41.1's encrypt/decrypt
(symmetric: scrypt-derived key, AES-GCM or ChaCha20-Poly1305 in n8n's framing; asymmetric: RSA-OAEP-SHA256).

Plain functions on bytes and text, with no node context: the node runs the slow ones (scrypt, RSA) in a thread.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re

from cryptography.exceptions import InvalidTag, UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import dsa, ec, padding, rsa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

KEY_LENGTHS = {"aes-128-gcm": 16, "aes-192-gcm": 24, "aes-256-gcm": 32, "chacha20-poly1305": 32}
_SALT, _IV, _TAG, _FORMAT = 16, 12, 16, 0x01
_SCRYPT = {"n": 65536, "r": 8, "p": 1, "maxmem": 128 * 1024 * 1024}
_DIGESTS: dict[str, type[hashes.HashAlgorithm]] = {
    "md5": hashes.MD5,
    "sha1": hashes.SHA1,
    "sha224": hashes.SHA224,
    "sha256": hashes.SHA256,
    "sha384": hashes.SHA384,
    "sha512": hashes.SHA512,
    "sha512-224": hashes.SHA512_224,
    "sha512-256": hashes.SHA512_256,
    "sha3-224": hashes.SHA3_224,
    "sha3-256": hashes.SHA3_256,
    "sha3-384": hashes.SHA3_384,
    "sha3-512": hashes.SHA3_512,
}


class CipherError(ValueError):
    """An operation failed; ``fix`` says what the user can do."""

    def __init__(self, message: str, fix: str) -> None:
        super().__init__(message)
        self.fix = fix


def _digest(algorithm: str) -> hashes.HashAlgorithm:
    """Node's digest names (``RSA-SHA256``, ``sha256WithRSAEncryption``, ``ecdsa-with-SHA256``, ``SHA256``)."""
    name = algorithm.lower()
    name = re.sub(r"^(rsa-|ecdsa-with-|dsa-with-|dsa-)", "", name)
    name = re.sub(r"withrsaencryption$", "", name).replace("/", "-")
    name = {"sha512-224": "sha512-224", "sha512-256": "sha512-256"}.get(name, name)
    if name not in _DIGESTS:
        raise CipherError(
            "Invalid digest", f"Choose a signing algorithm Node.js knows, such as RSA-SHA256 (not {algorithm!r})."
        )
    return _DIGESTS[name]()


def format_pem(key: str) -> str:
    """A PEM block whose newlines were lost (pasted into one line) made valid again, as n8n's ``formatPemBlock``."""
    key = key.strip().replace("\\n", "\n")
    match = re.match(r"^(-----BEGIN [A-Z ]+-----)\s*(.*?)\s*(-----END [A-Z ]+-----)$", key, re.S)
    if match is None:
        return key
    body = re.sub(r"\s+", "", match.group(2))
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "\n".join([match.group(1), *lines, match.group(3)]) + "\n"


def sign(data: bytes, key_pem: str, algorithm: str) -> bytes:
    """Node ``createSign(algorithm).update(data).sign(key)``: PKCS#1 v1.5 for RSA, DER ECDSA/DSA."""
    digest = _digest(algorithm)
    try:
        key = serialization.load_pem_private_key(format_pem(key_pem).encode(), password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise CipherError(
            "error:1E08010C:DECODER routines::unsupported", "Give a PEM private key without a passphrase."
        ) from None
    if isinstance(key, rsa.RSAPrivateKey):
        return key.sign(data, padding.PKCS1v15(), digest)
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return key.sign(data, ec.ECDSA(digest))
    if isinstance(key, dsa.DSAPrivateKey):
        return key.sign(data, digest)
    raise CipherError("Unsupported key type for this algorithm", "Sign with an RSA, EC or DSA private key.")


def _aead(cipher: str, key: bytes) -> AESGCM | ChaCha20Poly1305:
    return ChaCha20Poly1305(key) if cipher == "chacha20-poly1305" else AESGCM(key)


def _key(passphrase: str, salt: bytes, cipher: str) -> bytes:
    if cipher not in KEY_LENGTHS:
        raise CipherError("Invalid cipher", f"Choose one of {', '.join(KEY_LENGTHS)}.")
    return hashlib.scrypt(passphrase.encode(), salt=salt, dklen=KEY_LENGTHS[cipher], **_SCRYPT)


def encrypt(value: str, secret: str, mode: str, cipher: str) -> str:
    """The base64 ciphertext n8n 2.41.1 produces (random salt and IV each time)."""
    if mode != "symmetric":
        public = serialization.load_pem_public_key(format_pem(secret).encode())
        if not isinstance(public, rsa.RSAPublicKey):
            raise CipherError("Unsupported key type", "Use an RSA public key for asymmetric encryption.")
        try:
            encrypted = public.encrypt(value.encode(), _oaep())
        except ValueError:
            raise CipherError(
                "Plaintext is too large for the RSA key. Use symmetric mode for larger data.",
                "Encrypt less data, or switch 'Mode' to symmetric.",
            ) from None
        return base64.b64encode(encrypted).decode()
    salt, iv = os.urandom(_SALT), os.urandom(_IV)
    sealed = _aead(cipher, _key(secret, salt, cipher)).encrypt(iv, value.encode(), None)
    ciphertext, tag = sealed[:-_TAG], sealed[-_TAG:]
    return base64.b64encode(bytes([_FORMAT]) + salt + iv + tag + ciphertext).decode()


def decrypt(value: str, secret: str, mode: str, cipher: str) -> str:
    """The plaintext of :func:`encrypt`'s (or n8n's) ciphertext, with n8n's errors."""
    failed = CipherError(
        "Decryption failed: wrong passphrase, key, cipher, or corrupted payload",
        "Decrypt with the same credential, mode and cipher the value was encrypted with.",
    )
    payload = base64.b64decode(value + "=" * (-len(value) % 4), altchars=None, validate=False)
    try:
        if mode != "symmetric":
            private = serialization.load_pem_private_key(format_pem(secret).encode(), password=None)
            if not isinstance(private, rsa.RSAPrivateKey):
                raise failed
            return private.decrypt(payload, _oaep()).decode()
        if len(payload) < 1 + _SALT + _IV + _TAG:
            raise CipherError("Ciphertext is malformed or truncated", "Pass the whole value Encrypt produced.")
        if payload[0] != _FORMAT:
            raise CipherError(f"Unsupported ciphertext version 0x{payload[0]:02x}", "Pass a value Encrypt produced.")
        salt, iv = payload[1 : 1 + _SALT], payload[1 + _SALT : 1 + _SALT + _IV]
        tag, ciphertext = payload[1 + _SALT + _IV : 1 + _SALT + _IV + _TAG], payload[1 + _SALT + _IV + _TAG :]
        return _aead(cipher, _key(secret, salt, cipher)).decrypt(iv, ciphertext + tag, None).decode()
    except CipherError:
        raise
    except (InvalidTag, ValueError, TypeError, UnsupportedAlgorithm):
        raise failed from None


def _oaep() -> padding.OAEP:
    return padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)


__all__ = ["KEY_LENGTHS", "CipherError", "decrypt", "encrypt", "format_pem", "sign"]
