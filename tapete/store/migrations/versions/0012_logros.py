"""Logros: each player's progress towards each one, and the games already counted.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "logro_games",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("guest", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
    )
    op.create_index("ix_logro_games_guest", "logro_games", ["guest"])
    op.create_table(
        "logros",
        sa.Column("guest", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("progress", sa.Integer(), nullable=False),
        sa.Column("earned_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("game_id", sa.String(16), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("logros")
    op.drop_index("ix_logro_games_guest", table_name="logro_games")
    op.drop_table("logro_games")
