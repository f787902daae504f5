"""How a question is answered, beside what it is (`Query`): the engine asked for, and the
workers the `workers` engine runs on. Built once by the front end that reads them (the
command line, the API, puzint check) and handed down; nothing else says how to run."""

from __future__ import annotations

from dataclasses import dataclass, field

from .workers.options import Workers


@dataclass(frozen=True)
class RunOptions:
    engine: str = "auto"  # "auto", or the name of one engine (engines.registry)
    workers: Workers = field(default_factory=Workers)  # --workers N, --cluster ADDRESS: where `workers` runs
    heuristic: str = "auto"  # --heuristic: auto, derived, spec or none (plan.heuristic)
    patterns: str = ""  # --patterns: the groups of pieces the derived tables keep ("123,456"; "": chosen)
    cores: int | None = None  # the cores the run counts on (None: all this process may use; puzint check's: its share)
