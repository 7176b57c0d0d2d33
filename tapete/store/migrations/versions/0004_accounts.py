"""A player's own place: an optional e-mail address, coins, what they own and wear, and the
codes sent by e-mail.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("guests") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(sa.Column("avatar", sa.String(32), nullable=True))
        batch.add_column(sa.Column("lang", sa.String(8), nullable=True))
        batch.add_column(sa.Column("tz", sa.String(64), nullable=True))
        batch.add_column(sa.Column("coins", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("streak", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("equipped", sa.JSON(), nullable=True))
    op.create_index("ix_guests_email", "guests", ["email"], unique=True)
    op.create_table(
        "mail_codes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("guest", sa.String(32), sa.ForeignKey("guests.id"), nullable=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("used", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    )
    op.create_index("ix_mail_codes_email", "mail_codes", ["email", "purpose"])
    op.create_table(
        "owned",
        sa.Column("guest", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("item", sa.String(32), primary_key=True),
        sa.Column("price", sa.Integer(), nullable=False),
        sa.Column(
            "bought_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    )
    op.create_table(
        "coin_entries",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("guest", sa.String(32), sa.ForeignKey("guests.id"), nullable=False, index=True),
        sa.Column("delta", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(40), nullable=False),
        sa.Column("balance", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("coin_entries")
    op.drop_table("owned")
    op.drop_index("ix_mail_codes_email", "mail_codes")
    op.drop_table("mail_codes")
    op.drop_index("ix_guests_email", "guests")
    with op.batch_alter_table("guests") as batch:
        for column in ("equipped", "claimed_at", "streak", "coins", "tz", "lang", "avatar"):
            batch.drop_column(column)
        batch.drop_column("email")
