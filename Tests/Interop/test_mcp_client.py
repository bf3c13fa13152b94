"""`passkey mcp` driven by a real MCP client (the `mcp` package from PyPI) over stdio; what the tools
make is checked by py_webauthn, an independent verifier."""

import asyncio
import base64
import json
import os

import webauthn
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from conftest import passkey_binary


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def text_of(result) -> str:
    return "".join(part.text for part in result.content if part.type == "text")


async def session_run(store: str):
    server = StdioServerParameters(
        command=passkey_binary(), args=["mcp", "--store", store], env={**os.environ, "PASSKEY_PASSPHRASE": ""}
    )
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            assert {"create", "get", "list", "delete", "inspect", "verify_registration", "signup", "login"} <= set(
                tools
            )
            assert tools["create"].input_schema["required"] == ["origin", "options"]

            challenge = os.urandom(32)
            creation = {
                "rp": {"id": "example.org", "name": "Example"},
                "user": {"id": b64url(b"grace"), "name": "grace", "displayName": "Grace"},
                "challenge": b64url(challenge),
                "pubKeyCredParams": [{"type": "public-key", "alg": -8}, {"type": "public-key", "alg": -7}],
            }
            created = await session.call_tool("create", {"origin": "https://example.org", "options": creation})
            assert not created.is_error, text_of(created)
            registration = json.loads(text_of(created))
            verified = webauthn.verify_registration_response(
                credential=registration,
                expected_challenge=challenge,
                expected_rp_id="example.org",
                expected_origin="https://example.org",
            )

            challenge = os.urandom(32)
            request = {"rpId": "example.org", "challenge": b64url(challenge)}
            got = await session.call_tool("get", {"origin": "https://example.org", "options": request})
            assert not got.is_error, text_of(got)
            assertion = json.loads(text_of(got))
            webauthn.verify_authentication_response(
                credential=assertion,
                expected_challenge=challenge,
                expected_rp_id="example.org",
                expected_origin="https://example.org",
                credential_public_key=verified.credential_public_key,
                credential_current_sign_count=0,
            )

            refused = await session.call_tool("get", {"origin": "https://example.com", "options": request})
            assert refused.is_error
            assert text_of(refused).startswith("SecurityError: ")

            listed = json.loads(text_of(await session.call_tool("list", {"rpId": "example.org"})))
            assert [entry["credentialId"] for entry in listed] == [registration["id"]]
            assert "privateKey" not in listed[0]
            deleted = await session.call_tool("delete", {"credentialId": registration["id"]})
            assert not deleted.is_error
            assert json.loads(text_of(await session.call_tool("list", {}))) == []


def test_an_mcp_client_creates_and_uses_a_passkey_that_py_webauthn_verifies(tmp_path):
    asyncio.run(session_run(str(tmp_path / "store")))
