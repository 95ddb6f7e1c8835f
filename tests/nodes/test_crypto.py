"""Crypto: digests, signatures, generated strings and n8n 2.41.1's encryption format (recorded: n470-n475)."""

from __future__ import annotations

import base64
import hashlib
import hmac

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa

from weft.library.core._crypto_cipher import CipherError, decrypt, encrypt, format_pem, sign

TEXT = [{"text": "hello world"}]


@pytest.mark.parametrize(
    ("kind", "name"), [("MD5", "md5"), ("SHA1", "sha1"), ("SHA3-384", "sha3_384"), ("SHA512", "sha512")]
)
async def test_hash_types_and_encodings(run_node, js, kind, name):
    params = {"value": "={{ $json.text }}", "type": kind, "encoding": "base64", "dataPropertyName": "out.h"}
    run = await run_node("crypto", params, TEXT, typeVersion=2)
    expected = base64.b64encode(hashlib.new(name, b"hello world").digest()).decode()
    assert js(run) == [{"text": "hello world", "out.h": expected}]  # the property name is one key, dots and all


async def test_version_1_hashes_md5_by_default_and_hmacs_with_its_secret(run_node, js):
    run = await run_node("crypto", {"value": "x"}, TEXT, typeVersion=1)
    assert js(run)[0]["data"] == hashlib.md5(b"x").hexdigest()
    run = await run_node("crypto", {"action": "hmac", "value": "x", "secret": "k"}, TEXT, typeVersion=1)
    assert js(run)[0]["data"] == hmac.new(b"k", b"x", "md5").hexdigest()


async def test_a_value_that_is_not_text_is_an_item_error(run_node, js):
    run = await run_node("crypto", {"value": "={{ 5 }}"}, TEXT, typeVersion=2, onError="continueRegularOutput")
    assert js(run)[0]["error"]["message"].startswith('The "data" argument must be of type string')


@pytest.mark.parametrize(("kind", "pattern"), [("hex", "[0-9a-f]{12}"), ("base64", "[A-Za-z0-9]{1,12}")])
async def test_generate(run_node, js, kind, pattern):
    run = await run_node(
        "crypto", {"action": "generate", "encodingType": kind, "stringLength": 12}, TEXT, typeVersion=2
    )
    import re

    assert re.fullmatch(pattern, js(run)[0]["data"])


async def test_generated_ascii_keeps_seven_bits(run_node, js):
    run = await run_node("crypto", {"action": "generate", "encodingType": "ascii", "stringLength": 64}, TEXT)
    value = js(run)[0]["data"]
    assert len(value) == 64 and all(ord(ch) < 128 for ch in value)


def test_rsa_signature_verifies_and_one_line_pem_is_accepted():
    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    one_line = pem.replace("\n", " ")
    signature = sign(b"data", one_line, "RSA-SHA256")
    key.public_key().verify(signature, b"data", padding.PKCS1v15(), hashes.SHA256())
    assert format_pem(one_line) == pem


def test_ecdsa_signature_verifies():
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    key.public_key().verify(sign(b"data", pem, "sha384"), b"data", ec.ECDSA(hashes.SHA384()))


def test_unknown_digest_and_bad_key_are_typed_errors():
    with pytest.raises(CipherError, match="Invalid digest"):
        sign(b"x", "-----BEGIN PRIVATE KEY-----\nAA\n-----END PRIVATE KEY-----", "nope")
    with pytest.raises(CipherError):
        sign(b"x", "not a key", "sha256")


@pytest.mark.parametrize("cipher", ["aes-256-gcm", "aes-128-gcm", "chacha20-poly1305"])
def test_symmetric_round_trip_in_n8n_format(cipher):
    sealed = encrypt("secret text ✓", "pass", "symmetric", cipher)
    payload = base64.b64decode(sealed)
    assert payload[0] == 1 and len(payload) == 1 + 16 + 12 + 16 + len("secret text ✓".encode())
    assert decrypt(sealed, "pass", "symmetric", cipher) == "secret text ✓"
    with pytest.raises(CipherError, match="Decryption failed: wrong passphrase"):
        decrypt(sealed, "wrong", "symmetric", cipher)


def test_symmetric_errors_of_n8n():
    with pytest.raises(CipherError, match="malformed or truncated"):
        decrypt(base64.b64encode(b"\x01short").decode(), "p", "symmetric", "aes-256-gcm")
    with pytest.raises(CipherError, match="Unsupported ciphertext version 0x02"):
        decrypt(base64.b64encode(b"\x02" + b"0" * 60).decode(), "p", "symmetric", "aes-256-gcm")


def test_asymmetric_round_trip():
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    assert decrypt(encrypt("hi", public, "asymmetric", ""), private, "asymmetric", "") == "hi"
    with pytest.raises(CipherError, match="too large for the RSA key"):
        encrypt("x" * 400, public, "asymmetric", "")


async def test_version_2_hmac_needs_the_credential(run_node):
    run = await run_node("crypto", {"action": "hmac", "value": "x"}, TEXT, typeVersion=2)
    assert "error" in run["data"]["resultData"]


async def _run_v2(new_flow, nodes, credentials):
    from weft.engine import run_workflow
    from weft.engine.services import LocalServices

    flow = new_flow().add("Trigger", "manualTrigger").add("Input", "noOp").connect("Trigger", "Input")
    previous = "Input"
    for name, params in nodes:
        flow.add(name, "crypto", params, typeVersion=2).connect(previous, name)
        previous = name
    flow.pin("Input", TEXT)
    return await run_workflow(flow.build(), services=LocalServices(credentials={"crypto": credentials}))


async def test_version_2_reads_secrets_from_the_crypto_credential(new_flow, js):
    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    credentials = {"hmacSecret": "k2", "signPrivateKey": pem, "encryptionPassphrase": "pp"}
    nodes = [
        ("Hmac", {"action": "hmac", "value": "={{ $json.text }}", "dataPropertyName": "mac"}),
        (
            "Sign",
            {"action": "sign", "value": "={{ $json.text }}", "algorithm": "RSA-SHA256", "dataPropertyName": "sig"},
        ),
        ("Encrypt", {"action": "encrypt", "value": "={{ $json.text }}", "dataPropertyName": "sealed"}),
        ("Decrypt", {"action": "decrypt", "value": "={{ $json.sealed }}", "dataPropertyName": "opened"}),
    ]
    [item] = js(await _run_v2(new_flow, nodes, credentials), "Decrypt")
    assert item["mac"] == hmac.new(b"k2", b"hello world", "sha256").hexdigest()
    key.public_key().verify(bytes.fromhex(item["sig"]), b"hello world", padding.PKCS1v15(), hashes.SHA256())
    assert item["opened"] == "hello world" and item["sealed"] != "hello world"


async def test_version_2_names_the_missing_credential_field(new_flow):
    run = await _run_v2(new_flow, [("Hmac", {"action": "hmac", "value": "x"})], {"signPrivateKey": "k"})
    message = run["data"]["resultData"]["error"]["message"]
    assert message == "No HMAC secret set in credentials. Please add an HMAC secret to your Crypto credentials."
