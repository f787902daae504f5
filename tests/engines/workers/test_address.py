"""`workers.reach` against a real local cluster: its scheduler answers as one, and one of its
workers, given by mistake for the scheduler, is named for what it is."""

from __future__ import annotations

import pytest
from puzint.engines import workers

distributed = pytest.importorskip("distributed")


def test_a_scheduler_answers_and_a_worker_is_named_for_what_it_is(cluster: str) -> None:
    workers.reach(cluster)  # no exception: a scheduler
    with distributed.Client(cluster) as client:
        worker = sorted(client.scheduler_info()["workers"])[0]
    with pytest.raises(workers.Unreachable) as said:
        workers.reach(worker)
    assert str(said.value) == (
        f"what answers at {worker} is a Dask worker, not a scheduler: give the scheduler's address "
        "(the one `dask worker` is given)"
    )
