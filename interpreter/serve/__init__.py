"""`puzint serve`: a local web playground (docs/playground.md). The spec in an editor with the
language server's diagnostics as it is typed, the board to play by clicks and keys, solve
with its progress and the solution as a step viewer, the catalogue and the gallery as pages.

The server (Starlette on uvicorn: `app.py`, started by `server.py`) never runs a spec's work
itself: an analysis runs in the language server's workers (`lsp/pool.py`), and loading,
playing, hints, solving and the gallery's pictures in workers of this package (`worker.py`,
`pool.py`), each under time, state and memory limits and stopped when its page leaves. What
it reads and writes on disk is what the command line named (`named.py`), and it answers only
requests for its own address from its own pages (`guard.py`)."""

# every hint's, solve's and gallery picture's limits unless the command line says otherwise:
# here, where `puzint serve --help` reads them without importing the server
TIME_LIMIT = 30.0  # seconds
MAX_STATES = 2_000_000
MAX_MEMORY_MB = 2048.0
