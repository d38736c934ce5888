"""Settings, read from ERRATA_* environment variables when the app or CLI starts."""

from pathlib import Path

from pydantic import SecretStr
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
    rate_limit: int = 20
    rate_limit_window: int = 60
    # Largest accepted request body for submissions and lookups, in bytes.
    max_body_bytes: int = 64 * 1024
    # SQLite: how long a writer waits for the lock before giving up, in milliseconds.
    busy_timeout_ms: int = 30_000
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
    entry_cache_mb: int = 64
    # Trust X-Forwarded-For from a reverse proxy when identifying clients.
    trust_forwarded_for: bool = False
