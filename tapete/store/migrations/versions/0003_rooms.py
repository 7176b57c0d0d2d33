"""Private rooms: a six-digit code, its seats as rows, its games.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("code", sa.String(6), nullable=False, index=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("host", sa.String(32), sa.ForeignKey("guests.id"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(16), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column(
            "touched_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    )
    op.create_index(
        "ix_rooms_open_code",
        "rooms",
        ["code"],
        unique=True,
        sqlite_where=sa.text("status != 'closed'"),
        postgresql_where=sa.text("status != 'closed'"),
    )
    op.create_table(
        "room_seats",
        sa.Column("room_id", sa.String(16), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("n", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("guest", sa.String(32), sa.ForeignKey("guests.id"), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("level", sa.String(16), nullable=True),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("room_id", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("room_id")
    op.drop_table("room_seats")
    op.drop_index("ix_rooms_open_code", "rooms")
    op.drop_table("rooms")
