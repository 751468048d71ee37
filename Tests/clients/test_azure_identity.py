"""azure-identity, unmodified, against mockidp."""
import jwt
import pytest
from azure.core.exceptions import ClientAuthenticationError
from azure.identity import ClientSecretCredential

from conftest import API, CONTOSO, DAEMON, DAEMON_SECRET


def test_client_secret_credential_gets_a_token(server):
    credential = ClientSecretCredential(CONTOSO, DAEMON, DAEMON_SECRET, authority=server.base_url,
                                        disable_instance_discovery=True)
    token = credential.get_token("api://contoso-api/.default")
    claims = jwt.decode(token.token, options={"verify_signature": False})
    assert claims["aud"] == API
    assert sorted(claims["roles"]) == ["Reader", "Writer"]
    assert claims["tid"] == CONTOSO
    assert token.expires_on > 0


def test_client_secret_credential_with_a_wrong_secret_raises(server):
    credential = ClientSecretCredential(CONTOSO, DAEMON, "wrong", authority=server.base_url,
                                        disable_instance_discovery=True)
    with pytest.raises(ClientAuthenticationError, match="AADSTS7000215"):
        credential.get_token("api://contoso-api/.default")
