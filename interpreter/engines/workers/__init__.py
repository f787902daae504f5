"""The workers: a `search all` walk split into subtrees that Dask's workers walk at once, each
on the compiled kernel (or Python where the kernel does not run), on this machine's cores or
on a cluster.

Why Dask distributed: it installs from the package index as pure Python (`pip install
'puzint[parallel]'`), runs a local cluster of processes with no set-up, reaches a running
cluster by its scheduler's address with the same code, hands tasks to idle workers and
steals them from busy ones, and is maintained by a large project. Ray does the same with a
heavier install (a native core of its own); what this engine needs (tasks, their results,
cancelling) both give.

The split: breadth first from the start, every state's moves, until the layer holds enough
states for every worker to get many tasks (subtrees turn out of very different sizes, so
many more tasks than workers keep them all busy). The goal states met on the way are goal
states of the walk; the states of the last layer are the roots of the subtrees. A worker
walks its roots' subtrees as the one-worker walk does (`search.depth.all_goal_states`: a
path ends at the first goal it reaches) and returns the goal states it found.

The same answer: the one-worker walk finds every goal state that a path from the start
reaches without passing another goal; a path from the start either meets its first goal
above the last layer (found by the split) or passes one of the roots (found in that root's
subtree). Goal states found in several subtrees (the same arrangement reached by moves in
another order) are counted once: the driver keeps every goal state found, as the one-worker
walk does.

Limits: a task gets the time left and the states left; the driver stops every task (and
closes a local cluster) at a limit, at Ctrl-C or SIGTERM, and reports what was visited. A
worker that dies is reported as such, with the subtrees it was walking.
"""

from .engine import WorkersEngine
from .options import (
    CONNECT_SECONDS,
    NOT_INSTALLED,
    WORKERS_PER_CORE,
    Unreachable,
    Workers,
    cores,
    count_problem,
    installed,
    reach,
    scheduler_address,
)

__all__ = [
    "CONNECT_SECONDS",
    "NOT_INSTALLED",
    "WORKERS_PER_CORE",
    "Unreachable",
    "Workers",
    "WorkersEngine",
    "cores",
    "count_problem",
    "installed",
    "reach",
    "scheduler_address",
]
