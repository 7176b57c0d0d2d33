"""An e-mail code belongs to the browser that asked for it: a request voids only that
requester's earlier code, and the limits per address count per requester.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("mail_codes") as batch:
        batch.add_column(sa.Column("requester", sa.String(32), nullable=True))
    op.create_index("ix_mail_codes_requester", "mail_codes", ["requester", "purpose"])


def downgrade() -> None:
    op.drop_index("ix_mail_codes_requester", "mail_codes")
    with op.batch_alter_table("mail_codes") as batch:
        batch.drop_column("requester")
