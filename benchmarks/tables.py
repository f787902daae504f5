"""Plain-text tables for the benchmark reports."""

from __future__ import annotations


def row(cells: list[str], widths: list[int], left: int) -> str:
    return "  ".join(
        c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
    ).rstrip()


def table(header: list[str], rows: list[list[str]], left: int = 2) -> None:
    """Print a table; the first `left` columns are left-aligned, the others right-aligned."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    print(row(header, widths, left))
    print(row(["-" * w for w in widths], widths, left))
    for r in rows:
        print(row(r, widths, left))
