"""The shape of the code: no module imports one that (through others) imports it back, and
no package imports a package of a later stage (docs/architecture.md). Every import counts,
those made inside a function too: a circle hidden in a function is still a circle."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "interpreter"
PACKAGE = "puzint"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def imports(path: Path) -> Iterator[str]:
    """The package's modules that a module imports, wherever in it."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith(PACKAGE):
                yield target
                for alias in node.names:  # `from . import kernel`: the module kernel
                    yield f"{target}.{alias.name}"
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name.startswith(PACKAGE))


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in ROOT.rglob("*.py")}
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for target in imports(path):
            ancestor = name.startswith(target + ".")  # a package's __init__ runs before its modules anyway
            if target in modules and target != name and not ancestor:
                edges[name].add(target)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                part.append(member)
                if member == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_through_others() -> None:
    assert circles(graph()) == []


# The floors of the code, lowest first (docs/architecture.md): a unit imports only units of
# lower floors. Data flows one way: text -> syntax -> model -> compiled puzzle -> the plan ->
# an engine -> result -> rendering -> commands.
FLOORS = {
    "escapes": 0,
    "catalogue": 0,
    "ctrl_c": 0,
    "errors": 1,
    "files": 1,  # every file puzint writes, and the few it reads back from a cache
    "sources": 2,
    "model": 2,
    "search": 2,
    "language": 3,
    "compiler": 3,
    "expectation_file": 3,
    "kernel": 4,
    "trajectories": 4,
    "engines": 5,
    "heuristics": 5,  # heuristics derived from the spec (pattern databases, built on the kernel)
    "plan": 6,  # which engines answer a question (the table), and the runner that carries it out
    "questions": 6,
    "runner": 7,
    "solutions": 8,
    "render": 9,
    "expectations": 9,
    "play": 10,
    "gallery": 10,
    "checking": 10,  # puzint check's cases, here or on several cores
    "lsp": 10,
    "api": 11,
    "serve": 11,  # the web playground: play's sessions, lsp's analysis, render's pictures; only cli imports it
    "cli": 12,
    "pytest_plugin": 11,
    "__main__": 13,
    "prebuild": 12,  # run at install: the API's searches, to compile the kernel
    "": 12,  # the package itself: `import puzint` gives the API
}


def unit(module: str) -> str:
    """The unit a module belongs to: its package below puzint, or the module itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_every_unit_has_a_floor() -> None:
    assert {unit(m) for m in graph()} == set(FLOORS)


def test_no_unit_imports_one_of_a_later_stage() -> None:
    upward = sorted(
        f"{a} -> {b}"
        for a, targets in graph().items()
        for b in targets
        if unit(a) != unit(b) and FLOORS[unit(b)] >= FLOORS[unit(a)]
    )
    assert upward == []


# The parts of the kernel, lowest first (docs/architecture.md, "The kernel"): a part imports
# only parts of lower floors. The front door (kernel/__init__) is the highest: its parts may
# still use it, as a module may use its package (the package runs first anyway).
KERNEL = f"{PACKAGE}.kernel"
KERNEL_FLOORS = {
    "where": 0,  # where the compiled code is kept, without numba
    "compiling": 1,  # numba's decorators and the checked cache
    "machine": 2,
    "stores": 2,
    "fill": 2,
    "tables": 3,  # a puzzle of one word they cannot run gets a machine program
    "patterns": 3,  # pattern databases built (the machine reads them: its PATTERNS instruction)
    "searches": 4,
    "": 5,  # the front door
}


def kernel_part(module: str) -> str:
    """The part of the kernel a module belongs to: its sub-package, its module (`where`), or
    "" for the kernel's own __init__."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 else ""


def kernel_graph() -> dict[str, set[str]]:
    def inside(module: str) -> bool:
        return module == KERNEL or module.startswith(KERNEL + ".")

    return {a: {b for b in targets if inside(b)} for a, targets in graph().items() if inside(a)}


def test_every_part_of_the_kernel_has_a_floor() -> None:
    assert {kernel_part(m) for m in kernel_graph()} == set(KERNEL_FLOORS)


def test_no_part_of_the_kernel_imports_one_of_a_later_floor() -> None:
    upward = sorted(
        f"{a} -> {b}"
        for a, targets in kernel_graph().items()
        for b in targets
        if kernel_part(a) != kernel_part(b) and KERNEL_FLOORS[kernel_part(b)] >= KERNEL_FLOORS[kernel_part(a)]
    )
    assert upward == []


def test_every_part_of_the_kernel_says_what_it_is() -> None:
    """Each sub-package's __init__ says what the part is and why it is apart."""
    silent = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "kernel").glob("*/__init__.py"))
        if not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert silent == []


DOCS = ROOT.parent / "docs" / "architecture.md"


def test_every_module_the_architecture_names_exists() -> None:
    """docs/architecture.md names modules and packages by their path below interpreter/ (or the
    repository), or by their own name within the package its row is about: each must be there,
    so that the page never sends a newcomer to a file moved away."""
    import re

    named = set(re.findall(r"`((?:[a-z_]+/)*[a-z_]+(?:\.py|/))`", DOCS.read_text(encoding="utf-8")))
    everywhere = {path.name for path in ROOT.rglob("*.py")} | {p.name + "/" for p in ROOT.rglob("*") if p.is_dir()}

    def there(name: str) -> bool:
        if "/" in name.rstrip("/"):
            return any((base / name).exists() for base in (ROOT, ROOT.parent, ROOT / "kernel", ROOT / "engines"))
        return name in everywhere or (ROOT.parent / name).exists()

    missing = sorted(name for name in named if not there(name))
    assert missing == [] and len(named) > 40


def test_the_architecture_s_table_of_engines_is_the_registry_s() -> None:
    from puzint.engines import registry

    text = DOCS.read_text(encoding="utf-8")
    table = text[text.index("<!-- registry -->\n") + len("<!-- registry -->\n") : text.index("<!-- /registry -->")]
    assert table.splitlines() == registry.table()
