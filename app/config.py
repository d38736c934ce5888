"""Settings, read from ERRATA_* environment variables when the app or CLI starts."""

from pathlib import Path
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ERRATA_", extra="ignore")

    database_url: str = "sqlite:///errata.db"
    # Moderation is refused while this is unset.
    admin_token: SecretStr | None = None
    # The curated entries loaded (idempotently) by `errata serve`; empty disables it.
    data_dir: Path | None = PROJECT_ROOT / "data"
    # Evidence submissions allowed per client within rate_limit_window seconds.
    rate_limit: int = Field(20, ge=1)
    rate_limit_window: int = Field(60, ge=1)
    # Largest accepted request body for submissions and lookups, in bytes.
    max_body_bytes: int = Field(64 * 1024, ge=1)
    # Threads per process that run routes touching the database; each keeps one pooled
    # connection, so that no request under load opens a connection of its own. Routes are
    # bound by the interpreter's lock, and threads passing it between cores cost CPU: one
    # process free to use two cores served new searches at 214/s with 8 threads, 285/s
    # with 2, 326/s with 1 (358 to 372/s pinned to one core, whatever the count). Two, so
    # that a request waiting on a lock (another process's write) does not stall the rest.
    threads: int = Field(2, ge=1, le=256)
    # SQLite: how long a writer waits for the lock before giving up, in milliseconds.
    busy_timeout_ms: int = Field(30_000, ge=0)
    # Build the lookup index in the background at start, so the first paste does not wait.
    warm_lookup_index: bool = True
    # Mixed into the hash that identifies a submitting client, so stored hashes reveal no address.
    client_salt: str = "errata"
    # The address readers reach the site at (https://errata.example), for canonical links;
    # unset, each request's own origin is used.
    public_url: str | None = None
    # Where the NDJSON dump is cached (one file per data version); unset, beside the SQLite
    # file, or in the system's temporary folder for other databases.
    dump_dir: Path | None = None
    # The licence of errata's own entries, stated in the dump and on /about.
    content_licence: str = "CC BY 4.0"
    # Rendered entry responses each process keeps (both languages, all formats), in MiB.
    entry_cache_mb: int = Field(64, ge=0)
    # Trust X-Forwarded-For from a reverse proxy when identifying clients.
    trust_forwarded_for: bool = False
    # FastAPI's own OpenTelemetry spans, metrics and logs of each request, for a process
    # whose OpenTelemetry SDK is configured. Off: asking at each request whether one is took
    # 2.9 of the 14.9 µs a kept entry read costs in the app.
    telemetry: bool = False

    @field_validator("data_dir", "dump_dir", "public_url", mode="before")
    @classmethod
    def _empty_is_unset(cls, value):
        # `ERRATA_DATA_DIR=` means no folder; as a path, "" would be the current folder.
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("public_url")
    @classmethod
    def _an_address(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
            raise ValueError("must be an address such as https://errata.example")
        return value.rstrip("/")
