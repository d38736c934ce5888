"""Alembic, driven from code so that `errata db upgrade` and `errata serve` need no alembic.ini."""

from alembic import command
from alembic.config import Config

from app.config import PROJECT_ROOT, Settings


def alembic_config(settings: Settings) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", settings.database_url.replace("%", "%%"))
    return cfg


def upgrade(settings: Settings, revision: str = "head") -> None:
    command.upgrade(alembic_config(settings), revision)


def make_revision(settings: Settings, message: str) -> None:
    command.revision(alembic_config(settings), message=message, autogenerate=True)
