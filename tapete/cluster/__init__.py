"""Several ``tapete serve`` processes as one hall, on Redis: who owns each room (leases)."""

from tapete.cluster.leases import Leases

__all__ = ["Leases"]
