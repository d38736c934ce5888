"""FastAPI's OpenTelemetry instrumentation: off unless ERRATA_TELEMETRY asks for it."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import database_url

# A process with an OpenTelemetry tracer provider of its own, which notes the spans started:
# set once per process, so each case runs in a fresh one.
_TRACED = """
import json
from fastapi.testclient import TestClient
from opentelemetry import trace

started = []

class Tracer(trace.NoOpTracer):
    def start_span(self, name, *args, **kwargs):
        started.append(name)
        return super().start_span(name, *args, **kwargs)

class Provider(trace.TracerProvider):
    def get_tracer(self, *args, **kwargs):
        return Tracer()

trace.set_tracer_provider(Provider())

from app.config import Settings
from app.main import create_app

with TestClient(create_app(Settings())) as client:
    assert client.get("/api/v1/errors/pytorch/cuda-out-of-memory").status_code == 200
print(json.dumps(started))
"""


@pytest.mark.parametrize("telemetry", ["true", None])
def test_requests_are_traced_only_when_telemetry_is_asked_for(shipped_database, telemetry):
    env = {
        **os.environ,
        "ERRATA_DATABASE_URL": database_url(shipped_database),
        "ERRATA_DATA_DIR": "",
        "ERRATA_WARM_LOOKUP_INDEX": "false",
    }
    env.pop("ERRATA_TELEMETRY", None)
    if telemetry:
        env["ERRATA_TELEMETRY"] = telemetry
    command = [sys.executable, "-c", _TRACED]
    ran = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    spans = json.loads(ran.stdout.strip().splitlines()[-1])
    # On: the request's server span (named by its method); off, by default: none at all.
    assert ("GET" in spans) if telemetry else spans == []
