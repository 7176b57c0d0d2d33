"""What an operator reads and tunes: ``/metrics`` and ``/salud`` (:mod:`.probes`), the JSON
logs and request ids (:mod:`.logs`), the garbage collector's policy (:mod:`.gcpolicy`)."""
