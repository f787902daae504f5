"""A local Dask cluster of two worker processes, started once for the tests that run the
workers engine (tests/engines/workers/) and stopped after them."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def cluster() -> Iterator[str]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
    ) as local:
        yield local.scheduler_address
