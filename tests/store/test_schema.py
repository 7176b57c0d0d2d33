"""The migrations make the schema the models describe, on SQLite and PostgreSQL: a column or
index added to one and not the other fails here (Alembic's own comparison)."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

from tapete.store import migrate
from tapete.store.models import Base
from tapete.store.repo import sync_url


def test_the_migrated_schema_is_the_models(any_db: str) -> None:
    migrate(any_db)
    engine = create_engine(sync_url(any_db))
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(context, Base.metadata) == []
    finally:
        engine.dispose()
