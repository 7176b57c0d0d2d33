"""What every request meets first: the hall's limits (:mod:`.limits`), the checks of origin,
size and proxy at the edge (:mod:`.origin`), request bodies read within their limits
(:mod:`.bodies`)."""
