"""Play with strangers: ratings and their changes, quick-play tables (rooms.quick, games.rated),
leavings, blocks, reports, bans and the name strangers see.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("guests") as batch:
        batch.add_column(sa.Column("public_name", sa.String(40), nullable=True))
        batch.add_column(sa.Column("banned_at", WHEN, nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("quick", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("room_seats") as batch:
        batch.add_column(sa.Column("public", sa.String(40), nullable=True))
    op.create_table(
        "ratings",
        sa.Column("guest", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    op.create_index("ix_ratings_game_mu", "ratings", ["game", "mu"])
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("guest", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("at", WHEN, nullable=False),
    )
    op.create_index("ix_rating_changes_game_at", "rating_changes", ["game", "at"])
    op.create_index("ix_rating_changes_guest", "rating_changes", ["guest", "game"])
    op.create_table(
        "leavings",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("guest", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("at", WHEN, nullable=False),
    )
    op.create_index("ix_leavings_guest_at", "leavings", ["guest", "at"])
    op.create_table(
        "blocks",
        sa.Column("guest", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("blocked", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("at", WHEN, nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("reporter", sa.String(32), sa.ForeignKey("guests.id"), nullable=False),
        sa.Column("reported", sa.String(32), sa.ForeignKey("guests.id"), nullable=False),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("at", WHEN, nullable=False),
    )
    op.create_index("ix_reports_reported", "reports", ["reported"])
    op.create_index("ix_reports_status", "reports", ["status", "at"])


def downgrade() -> None:
    for table in ("reports", "blocks", "leavings", "rating_changes", "ratings"):
        op.drop_table(table)
    with op.batch_alter_table("room_seats") as batch:
        batch.drop_column("public")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("quick")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated")
    with op.batch_alter_table("guests") as batch:
        batch.drop_column("banned_at")
        batch.drop_column("public_name")
