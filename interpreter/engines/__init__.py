"""The engines: each says whether it can answer a question on a compiled puzzle (and if not,
why, in one sentence), and answers it with the same result type under the same limits. Python
(the reference), the compiled kernel, CP-SAT and Dask's workers are described once, in
`registry`; which of them answers a question, and how they are run, is the plan's business
(`puzint.plan`), not theirs (docs/architecture.md)."""

from .base import Engine, HandOver, Path
from .options import RunOptions
from .query import METHODS, Query

__all__ = ["METHODS", "Engine", "HandOver", "Path", "Query", "RunOptions"]
