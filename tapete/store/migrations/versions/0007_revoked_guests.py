"""The guests whose account was deleted: every copy of their cookie is refused.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "revoked_guests",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("revoked_guests")
