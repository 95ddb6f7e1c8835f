"""A throwaway certificate authority for tests: a CA certificate written to a PEM file (what
``WEFT_EXTRA_CA_CERTS`` and Node's ``NODE_EXTRA_CA_CERTS`` take) and, on demand, a server certificate it signs for
any host name. :class:`weft.testing.fake_api.FakeApiServer` uses it to answer ``CONNECT`` as an HTTPS proxy would
and serve a service's real host name (``sheets.googleapis.com``) itself, so nodes with a fixed API host are tested
unchanged, on 127.0.0.1, with certificates checked.
"""

from __future__ import annotations

import datetime
import ssl
import tempfile
import threading
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

_VALID_FROM = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
_VALID_UNTIL = datetime.datetime(2099, 1, 1, tzinfo=datetime.UTC)


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


class CertAuthority:
    """A CA whose certificate is at :attr:`ca_file`; :meth:`server_context` is an SSL context for one host name."""

    def __init__(self, folder: str | Path | None = None) -> None:
        self.folder = Path(folder or tempfile.mkdtemp(prefix="weft-test-ca-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self._key = ec.generate_private_key(ec.SECP256R1())
        subject = _name("Weft test CA")
        builder = x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
        builder = builder.public_key(self._key.public_key()).serial_number(x509.random_serial_number())
        builder = builder.not_valid_before(_VALID_FROM).not_valid_after(_VALID_UNTIL)
        builder = builder.add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        usage = x509.KeyUsage(False, False, False, False, False, True, True, False, False)
        builder = builder.add_extension(usage, critical=True)
        key_id = x509.SubjectKeyIdentifier.from_public_key(self._key.public_key())
        builder = builder.add_extension(key_id, critical=False)
        self._cert = builder.sign(self._key, hashes.SHA256())
        self.ca_file = self.folder / "ca.pem"
        self.ca_file.write_bytes(self._cert.public_bytes(serialization.Encoding.PEM))
        self._contexts: dict[str, ssl.SSLContext] = {}
        self._lock = threading.Lock()

    def server_context(self, host: str) -> ssl.SSLContext:
        """A server-side SSL context presenting a certificate for ``host`` signed by this CA."""
        with self._lock:
            if host not in self._contexts:
                self._contexts[host] = self._context_for(host)
            return self._contexts[host]

    def _context_for(self, host: str) -> ssl.SSLContext:
        key = ec.generate_private_key(ec.SECP256R1())
        builder = x509.CertificateBuilder().subject_name(_name(host)).issuer_name(self._cert.subject)
        builder = builder.public_key(key.public_key()).serial_number(x509.random_serial_number())
        builder = builder.not_valid_before(_VALID_FROM).not_valid_after(_VALID_UNTIL)
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
        builder = builder.add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        builder = builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        issuer_id = x509.AuthorityKeyIdentifier.from_issuer_public_key(self._key.public_key())
        builder = builder.add_extension(issuer_id, critical=False)
        cert = builder.sign(self._key, hashes.SHA256())
        safe = "".join(c if c.isalnum() or c in ".-" else "_" for c in host)
        cert_file, key_file = self.folder / f"{safe}.pem", self.folder / f"{safe}.key"
        cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        key_file.write_bytes(_pem_key(key))
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert_file, key_file)
        return context


__all__ = ["CertAuthority"]
