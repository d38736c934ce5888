"""Property-based fuzz of the whole OpenAPI surface against a real server (schemathesis).

Every operation the schema lists gets generated requests, valid and not: none may be
answered with a 5xx, every status must be one the schema documents for the operation, and
every answer must match what the schema says of its status (body schema, content type,
headers). The seed is fixed (derandomize) and the examples per
operation bounded, so a run takes a few minutes and a failure reproduces.
"""

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.config import Settings
from app.main import create_app
from tests.conftest import ADMIN_TOKEN, SHIPPED
from tests.server import serving

pytestmark = pytest.mark.slow
EXAMPLES_PER_OPERATION = 60
CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    content_type_conformance,
    response_headers_conformance,
    status_code_conformance,
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz") / "errata.db"
    with serving(db, workers=1, ERRATA_DATA_DIR=str(SHIPPED)) as (base, _):
        yield base


# The schema the server publishes at /openapi.json, built from the same application code
# (the cases are generated at collection time, before the server starts).
schema = schemathesis.openapi.from_dict(create_app(Settings(database_url="sqlite://")).openapi())


def _poisoned(value):
    """The value with control characters inside every string, as a hostile client sends them."""
    if isinstance(value, str):
        return f"\x00{value}\x1b\x7f"
    if isinstance(value, dict):
        return {k: _poisoned(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_poisoned(v) for v in value]
    return value


def test_the_server_publishes_the_schema_that_is_fuzzed(server):
    assert httpx.get(f"{server}/openapi.json").json() == schema.raw_schema


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_request_breaks_the_api(case, server):
    # The token lets the fuzzer past the moderator check into the moderation code itself.
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    case.call_and_validate(base_url=server, headers=headers, checks=CHECKS)
    # Hypothesis rarely draws NUL or escape characters; every case is also sent with them.
    case.query = _poisoned(case.query)
    if isinstance(case.body, dict | list | str):
        case.body = _poisoned(case.body)
    case.call_and_validate(base_url=server, headers=headers, checks=CHECKS)
