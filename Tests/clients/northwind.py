"""The tenant of the third-party relying-party tests (relying_parties/northwind.yaml): its IDs, its user and the web
app each relying party is registered as, and a module-scoped server serving it."""
import os

import pytest

from conftest import serving

CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "relying_parties", "northwind.yaml")
NORTHWIND = "264e5777-4a8a-4a18-975a-7a5495b451ef"
TAILSPIN = "7bcf9e88-b564-4cc5-bcf8-6f89602b8c17"
PORTAL, PORTAL_SECRET = "5d6d4a0c-0a94-4548-8e83-640868209622", "portal-secret"
NINA, NINA_PASSWORD = "nina@northwindrp.onmicrosoft.com", "Nina-Passw0rd"
NINA_EMAIL, NINA_NAME = "nina@northwind.example", "Nina Novak"


@pytest.fixture(scope="module")
def northwind():
    with serving(CONFIG) as s:
        yield s
