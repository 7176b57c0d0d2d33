"""Which of One Card's rules run: compiled, or from their source. Imported first by the
package (before :mod:`tapete.games.onecard.game`), so that a stale compiled module is never
the one imported (:func:`tapete.compiled.fresh`)."""

from typing import Final

from tapete.compiled import fresh

COMPILED: Final = fresh("tapete.games.onecard.game")
"""Whether the rules run compiled (``setup.py``: by mypyc, where the build had a C
compiler) or from their source; both give the same answers."""
