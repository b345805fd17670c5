"""The catalogue of known wrong formulas, and which one explains a stated number.

Published KV-cache figures go wrong in a handful of recurring ways: the GQA formula applied to an MLA
model, K and V counted once, GB read as GiB, sliding windows ignored, a hybrid called constant memory.
Each way is one :class:`Misapplication` below, with a code-like name, a one-line description and a
function computing what that mistake yields for the claim's model and run. When a stated number
disagrees with the engine, :func:`candidates` computes every applicable mistake and :func:`explain`
names the one whose exact value the stated number admits (its written precision is the tolerance), or,
when none does, the nearest ones with their values.

A mistake comes in one of three forms:

- a *layout change*: the cache laid out wrongly (GQA heads where MLA caches a latent);
- a *run change*: the right layout under the wrong conditions (another dtype, the ideal layout where an
  engine keeps scales, 128K read as 128,000 tokens);
- a *reading*: the right bytes reported wrongly (GB written as GiB, a per-token figure given as a total).

For a ratio, layout and run changes are tried on the numerator and on the denominator in turn. When no
single mistake explains a number, pairs of them made together are tried
(:mod:`~registry.engine.misapply.pairs`).

The package: :mod:`~registry.engine.misapply.situation` (what a mistake is computed for),
:mod:`~registry.engine.misapply.layout_changes`, :mod:`~registry.engine.misapply.run_changes` and
:mod:`~registry.engine.misapply.readings` (the three forms), :mod:`~registry.engine.misapply.catalogue`
(the entries, in order, each with a public occurrence where one is known),
:mod:`~registry.engine.misapply.search` (trying them on a claim) and
:mod:`~registry.engine.misapply.pairs` (two at once).
"""

from registry.engine.misapply.catalogue import BY_NAME, CATALOGUE, SEEN_PAIRS
from registry.engine.misapply.pairs import explain_situation, pair_candidates
from registry.engine.misapply.search import Explanation, candidates, explain
from registry.engine.misapply.situation import (
    Candidate,
    Change,
    Misapplication,
    Occurrence,
    Reading,
    Side,
    Situation,
)

__all__ = [
    "BY_NAME",
    "CATALOGUE",
    "SEEN_PAIRS",
    "Candidate",
    "Change",
    "Explanation",
    "Misapplication",
    "Occurrence",
    "Reading",
    "Side",
    "Situation",
    "candidates",
    "explain",
    "explain_situation",
    "pair_candidates",
]
