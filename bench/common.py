"""Shared set-up for the benchmarks: a migrated SQLite file with the corpus and shipped data."""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.config import Settings  # noqa: E402
from app.db import make_engine  # noqa: E402
from app.migrate import upgrade  # noqa: E402
from app.services.interchange.importer import import_paths  # noqa: E402

# The deadends.dev corpus beside the checkout; ERRATA_CORPUS names another place.
CORPUS = Path(os.environ.get("ERRATA_CORPUS", ROOT.parent / "shared" / "corpus" / "deadends-canons"))
SHIPPED = ROOT / "data"


def loaded_database(*paths: Path) -> tuple[Settings, object]:
    """A fresh database in a temporary folder with `paths` imported; returns settings and engine."""
    folder = Path(tempfile.mkdtemp(prefix="errata-bench-"))
    settings = Settings(database_url=f"sqlite:///{folder / 'bench.db'}", data_dir=None)
    upgrade(settings)
    engine = make_engine(settings)
    report = import_paths(engine, [p for p in paths if p.exists()])
    if report.failed:
        raise SystemExit(f"import failed: {report.failures[:3]}")
    return settings, engine
