"""The day of a daily claim is fixed when it is made: when the next claim opens, and until
when it continues the streak (changing the time zone later moves neither).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("guests") as batch:
        batch.add_column(sa.Column("daily_opens", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("daily_keeps", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("guests") as batch:
        batch.drop_column("daily_keeps")
        batch.drop_column("daily_opens")
