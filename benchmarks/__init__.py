"""Performance benchmarks: puzint's search against hand-written solvers (not part of the test run)."""
