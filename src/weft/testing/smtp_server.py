"""A capturing SMTP server on 127.0.0.1 (aiosmtpd) for Send Email tests and recordings.

``SmtpCaptureServer`` accepts every message and keeps it (envelope and bytes, parsed on demand).
With ``user``/``password`` it offers ``AUTH PLAIN/LOGIN`` (over plain TCP: a local test server), refuses other
logins and refuses mail without a login (530). ``python -m weft.testing.smtp_server`` serves it on
:data:`RECORDED_PORT` while real n8n records the Send Email cases, printing each message it receives.
"""

from __future__ import annotations

import email
import email.policy
import ipaddress
import ssl
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

#: The port the recorded Send Email cases' SMTP credential names (``tests/email/cases``).
RECORDED_PORT = 18296


@dataclass
class CapturedMail:
    """One message the server accepted."""

    mail_from: str
    rcpt_tos: list[str]
    raw: bytes
    tls: bool = False
    """Whether the mail came over TLS (implicit or STARTTLS)."""

    @property
    def message(self) -> EmailMessage:
        """The parsed message (``email.policy.default``)."""
        parsed = email.message_from_bytes(self.raw, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        return parsed

    def body(self, subtype: str) -> str:
        """The ``text/<subtype>`` part's decoded content ('' when there is none)."""
        part = self.message.get_body(preferencelist=(subtype,))
        content = "" if part is None or part.get_content_subtype() != subtype else str(part.get_content())
        return content.replace("\r\n", "\n")


class _Handler:
    def __init__(self, server: SmtpCaptureServer) -> None:
        self._server = server

    async def handle_DATA(self, _server: Any, session: Any, envelope: Any) -> str:
        if self._server.user is not None and not session.authenticated:
            return "530 5.7.0 Authentication required"
        tls = getattr(session, "ssl", None) is not None or self._server.tls == "implicit"
        mail = CapturedMail(str(envelope.mail_from), list(envelope.rcpt_tos), bytes(envelope.content), tls)
        self._server.messages.append(mail)
        return "250 Message accepted for delivery"


class SmtpCaptureServer:
    """Serves SMTP in a thread on 127.0.0.1; ``messages`` holds what arrived."""

    def __init__(
        self, port: int = 0, *, user: str | None = None, password: str | None = None, tls: str | None = None
    ) -> None:
        self.port = port
        self.user = user
        self.password = password
        self.tls = tls
        """``None`` (plain), ``"starttls"`` (offered) or ``"implicit"`` (TLS from the start), self-signed."""
        self.messages: list[CapturedMail] = []
        self.logins: list[str] = []
        self._controller: Controller | None = None

    def _authenticate(self, _server: Any, _session: Any, _envelope: Any, _mechanism: str, data: Any) -> AuthResult:
        if not isinstance(data, LoginPassword):
            return AuthResult(success=False, handled=False)
        login, password = data.login.decode(), data.password.decode()
        self.logins.append(login)
        return AuthResult(success=login == self.user and password == self.password, handled=False)

    def start(self) -> Self:
        kwargs: dict[str, Any] = {"hostname": "127.0.0.1", "port": self.port, "ready_timeout": 10.0}
        if self.user is not None:
            kwargs |= {"authenticator": self._authenticate, "auth_require_tls": False}
        if self.tls == "starttls":
            kwargs["tls_context"] = self_signed_context()
        elif self.tls == "implicit":
            kwargs["ssl_context"] = self_signed_context()
        if self.port == 0:
            kwargs["port"] = _free_port()
        self._controller = Controller(_Handler(self), **kwargs)
        self._controller.start()
        self.port = int(kwargs["port"])
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def wait_for(self, count: int, timeout: float = 10.0) -> list[CapturedMail]:
        """The messages once ``count`` have arrived (raises ``TimeoutError`` after ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while len(self.messages) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{len(self.messages)} of {count} messages arrived")
            time.sleep(0.02)
        return list(self.messages)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.stop()


def self_signed_context() -> ssl.SSLContext:
    """A server TLS context with a fresh self-signed certificate for ``127.0.0.1`` (no CA trusts it)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .sign(key, hashes.SHA256())
    )  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        cert_path, key_path = Path(folder) / "cert.pem", Path(folder) / "key.pem"
        cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        key_path.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert_path, key_path)
    return context


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main() -> None:  # pragma: no cover - a manual recording helper
    """Serve on :data:`RECORDED_PORT` (or ``argv[1]``) and print each message."""
    port = int(sys.argv[1]) if len(sys.argv) > 1 else RECORDED_PORT
    with SmtpCaptureServer(port) as server:
        print(f"SMTP on 127.0.0.1:{server.port}", flush=True)
        seen = 0
        while True:
            time.sleep(0.2)
            for mail in server.messages[seen:]:
                print("----", mail.mail_from, mail.rcpt_tos, "\n" + mail.raw.decode(errors="replace"), flush=True)
            seen = len(server.messages)


if __name__ == "__main__":  # pragma: no cover
    main()


__all__ = ["RECORDED_PORT", "CapturedMail", "SmtpCaptureServer", "self_signed_context"]
