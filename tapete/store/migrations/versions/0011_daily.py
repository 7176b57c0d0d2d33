"""The deal of the day («Reto del día»): each player's attempt, one a day and game.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily",
        sa.Column("day", sa.Date(), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("guest", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
    )
    op.create_index("ix_daily_guest", "daily", ["guest"])
    op.create_index("ix_daily_game_id", "daily", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_daily_game_id", table_name="daily")
    op.drop_index("ix_daily_guest", table_name="daily")
    op.drop_table("daily")
