"""Several ``tapete serve`` processes as one hall, on Redis: who owns each room (leases),
the heartbeat that keeps them and takes over from the dead, messages between processes."""

from tapete.cluster.leases import Leases
from tapete.cluster.node import Node, NodeHandler, Unreachable

__all__ = ["Leases", "Node", "NodeHandler", "Unreachable"]
