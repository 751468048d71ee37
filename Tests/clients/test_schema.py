"""The configuration's JSON Schema (config/mockidp.schema.json, `mockidp config schema`) checked with the real
`jsonschema` validator: every shipped configuration and the embedded default are valid, and schema and loader
(`mockidp config check`) agree on a set of good and bad files. Where one is stricter than the other, the difference
is listed below with the reason, so a change on either side shows here."""
import glob
import json
import os
import subprocess
import tempfile

import jsonschema
import pytest
import yaml

from conftest import binary

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA_PATH = os.path.join(ROOT, "config", "mockidp.schema.json")
CONTOSO = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
APP = "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c"


@pytest.fixture(scope="module")
def validator():
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    assert cls is jsonschema.Draft202012Validator
    cls.check_schema(schema)
    return cls(schema)


def schema_errors(validator, text):
    return [e.message for e in validator.iter_errors(yaml.safe_load(text))]


def loader_check(text):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "case.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        r = subprocess.run([binary(), "config", "check", path], capture_output=True, text=True, timeout=30)
    assert r.returncode in (0, 78), r.stderr
    return r.returncode == 0, r.stderr


def test_the_command_prints_the_shipped_schema():
    printed = subprocess.run([binary(), "config", "schema"], capture_output=True, text=True, timeout=30, check=True).stdout
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        assert printed == f.read(), "config/mockidp.schema.json is out of date: run scripts/generate-schema"


SHIPPED = sorted(glob.glob(os.path.join(ROOT, "config", "**", "*.yaml"), recursive=True))


@pytest.mark.parametrize("path", SHIPPED, ids=[os.path.relpath(p, ROOT) for p in SHIPPED])
def test_every_shipped_configuration_is_valid_and_names_the_schema(validator, path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    first = text.splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    named = os.path.normpath(os.path.join(os.path.dirname(path), first.split("$schema=", 1)[1]))
    assert named == SCHEMA_PATH
    assert schema_errors(validator, text) == []


def test_the_embedded_default_as_printed_is_valid(validator):
    printed = subprocess.run([binary(), "config", "print"], capture_output=True, text=True, timeout=30, check=True).stdout
    assert "tenants:" in printed
    assert schema_errors(validator, printed) == []


def tenant(body):
    return "tenants:\n  - id: %s\n" % CONTOSO + "".join("    " + line + "\n" for line in body.strip("\n").splitlines())


# Files both accept.
GOOD = {
    "empty tenants": "tenants: []\n",
    "lifetimes": "tokens: {lifetime: 60, refreshLifetime: 86400, codeLifetime: 1}\ntenants: []\n",
    "hosts": "hosts: [login.microsoftonline.de, Login.Example.COM]\ntenants: []\n",
    "a full tenant": tenant("""
domains: [contoso.onmicrosoft.com]
name: Contoso
cloud: usgov
signIn: {anyUser: true}
users:
  - username: alice@contoso.onmicrosoft.com
    password: pw
    oid: 0C3E9D2A-5B7F-4E1A-9C8D-1F2E3D4C5B6A
    groups: [a8f2c3d4-1e5b-4c6a-9d7e-0f1a2b3c4d5e]
    roles: [Admin]
    claims: {department: Sales, level: 3, tags: [a, b]}
    requireMfa: true
apps:
  - clientId: %s
    type: public
    redirectUris: [http://localhost]
    scopes: [access_as_user]
    apiPermissions: {https://graph.microsoft.com: [User.Read]}
    accessTokenVersion: 2
""" % APP),
    "a number where text is read": tenant("""
name: 42
users: [{username: 1234, password: 5678}]
"""),
    "a B2C tenant": tenant("b2c: {policies: [B2C_1_signupsignin], policyClaim: acr}"),
    "a GCC High tenant": tenant("cloud: usgov\nregionSubScope: DODCON"),
    "an External ID tenant whose users sign in with codes": tenant(
        "externalId: {signIn: otp, customDomains: [login.contoso.com], attributes: [displayName, city]}\n"
        "users: [{username: carol@example.com}]"),
}

# Files both refuse: unknown keys, wrong types, bad enumerations, missing required keys, bad GUIDs and host names.
BAD = {
    "unknown top-level key": "tenant: []\n",
    "unknown user key (typo)": tenant("users: [{username: a@contoso.com, passwrd: x}]"),
    "unknown app key": tenant("apps: [{clientId: %s, secrets: x}]" % APP),
    "hosts not a list": "hosts: login.example.com\n",
    "a boolean that is text": tenant("apps: [{clientId: %s, multiTenant: maybe}]" % APP),
    "a quoted number": 'tokens: {lifetime: "3600"}\n',
    "a lifetime out of range": "tokens: {lifetime: 10}\n",
    "an access token version out of range": tenant("apps: [{clientId: %s, accessTokenVersion: 3}]" % APP),
    "an unknown cloud": tenant("cloud: azure"),
    "an unknown region sub-scope": tenant("cloud: usgov\nregionSubScope: IL5"),
    "an unknown client type": tenant("apps: [{clientId: %s, type: daemon}]" % APP),
    "an unknown policy claim": tenant("b2c: {policies: [B2C_1_x], policyClaim: sub}"),
    "anyUser that is no boolean": tenant("signIn: {anyUser: everyone}"),
    "a tenant without id": "tenants:\n  - name: Contoso\n",
    "an unknown External ID sign-in method": tenant("externalId: {signIn: sms}"),
    "an External ID attribute that is no name": tenant("externalId: {attributes: ['shoe size']}"),
    "an app without clientId": tenant("apps: [{name: x}]"),
    "B2C without policies": tenant("b2c: {policyClaim: tfp}"),
    "a tenant id that is no GUID": "tenants:\n  - id: contoso\n",
    "a GUID one digit short": "tenants:\n  - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c1\n",
    "a group that is no GUID": tenant("users: [{username: a@contoso.com, password: x, groups: [sales]}]"),
    "a host with a scheme": "hosts: [https://login.example.com]\n",
    "a domain with an empty label": tenant("domains: [contoso..com]"),
    "a scope with a space": tenant("apps: [{clientId: %s, scopes: [read all]}]" % APP),
    "claims not a mapping": tenant("users: [{username: a@contoso.com, password: x, claims: [a]}]"),
    "a tenant that is a string": "tenants: [contoso]\n",
}

# The loader checks more than a schema can say: facts across entries and files, and what a value means.
LOADER_ONLY = {
    "a user listed twice": tenant("users: [{username: a@contoso.com, password: x}, {username: A@contoso.com, password: y}]"),
    "a guest whose home tenant is the tenant itself": tenant(
        "users: [{username: a@contoso.com, password: x, homeTenant: %s}]" % CONTOSO),
    "a confidential client without a secret": tenant("apps: [{clientId: %s, type: confidential}]" % APP),
    "a permission on an API nobody registered": tenant("apps: [{clientId: %s, apiPermissions: {api://nobody: [Read]}}]" % APP),
    "a javascript: redirect URI": tenant("apps: [{clientId: %s, redirectUris: ['javascript:alert(1)']}]" % APP),
    "a certificate file that does not exist": tenant("apps: [{clientId: %s, certificates: [missing.pem]}]" % APP),
    "a region sub-scope of another cloud's tenants": tenant("regionSubScope: DOD"),
    # Only a code-only External ID tenant's users may lack a password: the schema cannot tie a user to its tenant.
    "a user without password": tenant("users: [{username: a@contoso.com}]"),
    "a tenant both B2C and External ID": tenant("b2c: {policies: [B2C_1_x]}\nexternalId: {}"),
    "an External ID attribute sign-up cannot collect": tenant("externalId: {attributes: [shoeSize]}"),
}

# The schema is stricter where an editor should suggest the one spelling: the loader also reads an enumeration's
# words in any case, and an empty value (`name:`) as unset.
SCHEMA_ONLY = {
    "an enumeration word in capitals": tenant("cloud: Public"),
    "a region sub-scope in lower case": tenant("cloud: usgov\nregionSubScope: dod"),
    "an empty optional value": tenant("name:"),
}


@pytest.mark.parametrize("name", list(GOOD))
def test_schema_and_loader_accept(validator, name):
    accepted, stderr = loader_check(GOOD[name])
    assert accepted, stderr
    assert schema_errors(validator, GOOD[name]) == []


@pytest.mark.parametrize("name", list(BAD))
def test_schema_and_loader_refuse(validator, name):
    accepted, _ = loader_check(BAD[name])
    assert not accepted
    assert schema_errors(validator, BAD[name]) != []


@pytest.mark.parametrize("name", list(LOADER_ONLY))
def test_only_the_loader_refuses(validator, name):
    accepted, _ = loader_check(LOADER_ONLY[name])
    assert not accepted
    assert schema_errors(validator, LOADER_ONLY[name]) == []


@pytest.mark.parametrize("name", list(SCHEMA_ONLY))
def test_only_the_schema_refuses(validator, name):
    accepted, stderr = loader_check(SCHEMA_ONLY[name])
    assert accepted, stderr
    assert schema_errors(validator, SCHEMA_ONLY[name]) != []
