"""The encrypted connection: TLS from the standard library, with a self-signed certificate
the host makes for itself (with `cryptography`, the one thing the standard library cannot
do). The joiner does not check the certificate against any authority; it is authenticated by
the seat code instead (see `codes.proof`), and its fingerprint is shown on both screens."""

from __future__ import annotations

import hashlib
import os
import ssl
import tempfile
from dataclasses import dataclass
from pathlib import Path

from wargame_cli import extras
from wargame_cli.errors import BadInput


def require() -> None:
    """Before anything is asked: a host makes its certificate with `cryptography`."""
    if not extras.available("remote"):
        raise BadInput(extras.needs("remote", "hosting a game"))


@dataclass(frozen=True)
class Identity:
    """The host's key and certificate (PEM); kept beside a hosted save so a restarted host
    shows the same fingerprint."""

    key_pem: str
    cert_pem: str

    @property
    def fingerprint(self) -> str:
        return fingerprint(ssl.PEM_cert_to_DER_cert(self.cert_pem))


def fingerprint(der: bytes) -> str:
    digest = hashlib.sha256(der).hexdigest()
    return "SHA256:" + ":".join(digest[i : i + 4] for i in range(0, 32, 4))


def new_identity() -> Identity:
    """A fresh P-256 key and a certificate for it, valid for a year."""
    try:
        import datetime

        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
    except ImportError:
        raise BadInput(extras.needs("remote", "hosting a game")) from None
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "wargame host")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=365))
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    return Identity(key_pem, cert.public_bytes(serialization.Encoding.PEM).decode())


def server_context(identity: Identity) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    with tempfile.TemporaryDirectory() as folder:  # load_cert_chain reads files only
        where = Path(folder)
        os.chmod(folder, 0o700)
        (where / "key.pem").write_text(identity.key_pem)
        (where / "cert.pem").write_text(identity.cert_pem)
        context.load_cert_chain(where / "cert.pem", where / "key.pem")
    return context


def client_context() -> ssl.SSLContext:
    """Encrypts without trusting any authority: the seat code authenticates the host."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def peer_fingerprint(sock: ssl.SSLSocket) -> str:
    der = sock.getpeercert(binary_form=True)
    if der is None:
        raise BadInput("the host showed no certificate")
    return fingerprint(der)
