"""Every example in README.md and docs/ runs as shown, and the docs speak the user's language.

The examples are read from the Markdown itself:

- in a code block, a line `$ puzint ...` (the lines after it, up to the next `$` line or the end
  of the block, are the output it shows), a line that is a bare `puzint ...` command, or a
  `... && puzint ...` chain of commands;
- in prose, a command in backticks: `puzint run specs/frog.puz -p n=4`, `puzint check`;
- in the catalogue of docs/language.md, an option fragment in backticks (`-p couples=4`,
  `--count`) in the text after a spec: that spec run with those options.

Usage synopses (`puzint run SPEC [-p NAME=VALUE ...]`) and mentions with placeholders (`SPEC`,
`...`) are not examples. What a command sends on to another program or a file (`| dot -Tsvg`,
`> knights.svg`) is left out: the output is captured. Each example runs in-process through
`puzint.cli.main` in the repository root, as an 80-column terminal would show it, and must exit
as its doc says (0 unless EXIT below says otherwise) and print the output shown under it, in
order (`...` lines, blank lines and timings aside).

Files the docs ask the reader to write (`mypuzzle.puz` with its `mypuzzle.yaml`, `mine.puz`)
are made in a temporary directory for the examples that use them: the spec is the frog jump,
whose figures the README's expectation file gives, and the expectation file is that YAML block.

The Python blocks of docs/api.md run too, and print what their comments say they print. Every
relative link of the docs leads to a file of the repository (and a `#section` to a heading),
every repository path the prose names exists, and no spec's `about` line (shown under the title
of every run) speaks of how the project was made.
"""

from __future__ import annotations

import re
import shlex
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from puzint.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SPECS = ROOT / "specs"

# The exit code of each example that does not simply succeed, and where its doc says so.
EXIT = {
    "run specs/jealous_husbands.puz -p couples=4": 4,  # language.md: "proves there is no solution"
    "run specs/knights_tour.puz -p n=4": 4,  # language.md: "proves there is none on 4 x 4"
    "play mypuzzle.puz": 2,  # the game needs a terminal, which a test has not (tests/play drives it)
}
# Examples that take more than a few seconds, left to `pytest -m slow`.
SLOW = {
    "check",  # every case of every spec's expectations, the slow ones included: about 2 minutes
    "check specs",  # the same (tests/specs/test_specs.py checks every case but the slow ones)
    "run specs/bishops.puz -p attack=false",  # about 15 s: 757,180 states
    "run klotski --format svg",  # 15-30 s: Klotski solved and drawn (the gallery's other pictures run)
    "run specs/pocket_cube.puz --reach --from-goal",  # 10-20 s: 3,674,160 positions
    "run specs/knights_tour.puz -p n=30",  # 10-20 s: 900 boards of 900 squares drawn
    "run fifteen --format svg",  # a minute where the pattern databases are built (a fresh cache)
    "run specs/fifteen.puz",  # the same
}
# Files the docs tell the reader to write; the examples that name them run where they exist.
USER_FILES = ("mypuzzle.puz", "mine.puz", "solution.moves")
# The frog jump (n = 3) solved by hand, simulated move by move from B B B _ W W W: the
# solution file the README has the reader check with --replay.
FROG_BY_HAND = """\
slide B 3->4
jump W 5->3
slide W 6->5
jump B 4->6
jump B 2->4
slide B 1->2
jump W 3->1
jump W 5->3
jump W 7->5
slide B 6->7
jump B 4->6
jump B 2->4
slide W 3->2
jump W 5->3
slide B 4->5
"""
# Code block languages whose lines may be commands (not specs, YAML, JSON or Python).
SHELL = {"", "console", "sh", "shell", "bash", "text"}
PLACEHOLDERS = re.compile(r"\.\.\.|\[|\b(?:SPEC|DIR|NAME|VALUE|FILE)\b")
TIMING = re.compile(r"\b\d+(?:\.\d+)? s\b")
# Repository paths named in prose that no longer exist, on purpose: the profile of version 1 in
# docs/performance-more.md names the files it profiled, and says they have been replaced.
HISTORICAL = {
    "interpreter/compiler/places.py",
    "interpreter/compiler/placement.py",
    "interpreter/compiler/predicates.py",
    "interpreter/search/enumerate.py",
}
JARGON = re.compile(r"catalogue|seed|\.\./shared|/work/", re.I)


def where(doc: Path, line: int) -> str:
    return f"{doc.relative_to(ROOT).as_posix()}:{line}"


# ---- reading the Markdown


@dataclass(frozen=True)
class Block:
    doc: Path
    line: int  # of the opening fence
    language: str
    lines: tuple[str, ...]


def code_blocks(doc: Path) -> Iterator[Block]:
    """Fenced code blocks (indented fences too, as in a list item)."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^(\s*)(```+)(.*)$", lines[i])
        if not fence:
            i += 1
            continue
        indent, ticks, language = fence.groups()
        body, j = [], i + 1
        while j < len(lines) and not lines[j].strip().startswith(ticks):
            body.append(lines[j][len(indent) :] if lines[j].startswith(indent) else lines[j].lstrip())
            j += 1
        yield Block(doc, i + 1, language.strip().lower(), tuple(body))
        i = j + 1


def prose_lines(doc: Path) -> list[str]:
    """The document's lines with its code blocks blanked, so that line numbers are kept."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    for block in code_blocks(doc):
        for k in range(block.line - 1, min(block.line + len(block.lines) + 1, len(lines))):
            lines[k] = ""
    return lines


def inline_code(doc: Path) -> Iterator[tuple[int, str]]:
    """Every `code span` of the prose with its line (a span may wrap onto the next line)."""
    text = "\n".join(prose_lines(doc))
    for match in re.finditer(r"`([^`]+)`", text):
        yield text.count("\n", 0, match.start()) + 1, " ".join(match.group(1).split())


def markdown_links(doc: Path) -> Iterator[tuple[int, str]]:
    """Inline links `[text](target)` and reference definitions `[name]: target` of the prose."""
    for number, line in enumerate(prose_lines(doc), start=1):
        line = re.sub(r"`[^`]*`", "", line)
        for target in re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", line):
            yield number, target
        for target in re.findall(r"^\s*\[[^\]]+\]:\s*(\S+)", line):
            yield number, target


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|\*|_(?=\w)|(?<=\w)_", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    return {slug(line.lstrip("#")) for line in prose_lines(doc) if re.match(r"#{1,6} ", line)}


# ---- the examples


@dataclass(frozen=True)
class Example:
    place: str  # file:line, or several
    command: str  # as the doc shows it, without the leading `puzint`
    shown: tuple[str, ...] = ()  # the output the doc shows under it

    @property
    def argv(self) -> list[str]:
        """The arguments: what goes on to a pipe or a file (`| dot`, `> out.svg`) is captured instead."""
        words = shlex.split(self.command, posix=True)
        for stop in ("|", ">"):
            if stop in words:
                words = words[: words.index(stop)]
        return words

    @property
    def needs_user_files(self) -> bool:
        return any(name in self.argv for name in USER_FILES)


def puzint_command(text: str) -> str | None:
    """`puzint SUBCOMMAND ...` without its `puzint`, or None for prose, synopses and mentions
    (`puzint run --format json` names an option of a command, not a run of it)."""
    words = text.split()
    if len(words) < 2 or words[0] != "puzint" or not words[1].isalpha():
        return None
    runnable = text.split("|")[0].split(">")[0]
    if PLACEHOLDERS.search(runnable):
        return None
    if words[1] != "check" and (len(words) < 3 or words[2].startswith(("-", "|", ">"))):
        return None
    return text.split(None, 1)[1]


def block_examples(block: Block) -> Iterator[Example]:
    if block.language not in SHELL:
        return
    for k, line in enumerate(block.lines):
        place = where(block.doc, block.line + 1 + k)
        if line.startswith("$ "):
            command = puzint_command(line[2:].strip())
            if command is None:
                continue
            shown = []
            for after in block.lines[k + 1 :]:
                if after.startswith("$ "):
                    break
                shown.append(after)
            yield Example(place, command, tuple(shown))
        elif not line[:1].isspace():  # an indented line is some program's output
            for part in line.split(" #")[0].split("&&"):
                command = puzint_command(part.strip())
                if command is not None:
                    yield Example(place, command)


def prose_examples(doc: Path) -> Iterator[Example]:
    for line, code in inline_code(doc):
        command = puzint_command(code)
        if command is not None:
            yield Example(where(doc, line), command)


def spec_titles() -> dict[str, str]:
    """The `puzzle "..."` line of each shipped spec, and its path."""
    return {
        spec.read_text(encoding="utf-8").splitlines()[0]: f"specs/{spec.name}" for spec in sorted(SPECS.glob("*.puz"))
    }


def catalogue_examples(doc: Path) -> Iterator[Example]:
    """Option fragments in the catalogue's prose, run on the spec shown last before them."""
    titles = spec_titles()
    starts = {block.line: block for block in code_blocks(doc)}
    text = doc.read_text(encoding="utf-8").splitlines()
    prose = prose_lines(doc)
    in_catalogue, spec = False, None
    for number, line in enumerate(text, start=1):
        if line.startswith("## "):
            in_catalogue, spec = line == "## The catalogue", None
        block = starts.get(number)
        if in_catalogue and block and block.lines and block.lines[0] in titles:
            spec = titles[block.lines[0]]
        for fragment in re.findall(r"`([^`]+)`", prose[number - 1]):
            if in_catalogue and spec and fragment.startswith(("-p ", "--")) and not PLACEHOLDERS.search(fragment):
                yield Example(where(doc, number), f"run {spec} {fragment}")


def all_examples() -> list[Example]:
    found: list[Example] = []
    for doc in DOCS:
        for block in code_blocks(doc):
            found.extend(block_examples(block))
        found.extend(prose_examples(doc))
        found.extend(catalogue_examples(doc))
    return found


def merged(examples: list[Example]) -> list[Example]:
    """One test per distinct example; the places that give the same one are named together."""
    places: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for example in examples:
        places.setdefault((example.command, example.shown), []).append(example.place)
    return [Example(",".join(at), command, shown) for (command, shown), at in places.items()]


FOUND = all_examples()
EXAMPLES = merged(FOUND)


def normal(line: str) -> str:
    return TIMING.sub("<time> s", line.rstrip())


def missing_lines(shown: tuple[str, ...], out: str) -> list[str]:
    """The lines shown (blank and `...` lines aside) that the output lacks, or has out of order."""
    actual = [normal(line) for line in out.splitlines()]
    missing, at = [], 0
    for line in shown:
        if line.strip() in ("", "..."):
            continue
        try:
            at = actual.index(normal(line), at) + 1
        except ValueError:
            missing.append(line)
    return missing


@pytest.fixture
def reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a reader's terminal shows: 80 columns, no colour codes, no debugging."""
    monkeypatch.setenv("COLUMNS", "80")
    for name in ("LINES", "FORCE_COLOR", "PUZINT_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(ROOT)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A reader's directory: the repository's specs/, and the files the docs ask them to write."""
    (tmp_path / "specs").symlink_to(SPECS, target_is_directory=True)
    for name in USER_FILES:
        if name.endswith(".puz"):
            shutil.copy(SPECS / "frog.puz", tmp_path / name)
    (tmp_path / "solution.moves").write_text(FROG_BY_HAND, encoding="utf-8")
    (expected,) = [b for b in code_blocks(ROOT / "README.md") if b.language == "yaml"]
    (tmp_path / "mypuzzle.yaml").write_text("\n".join(expected.lines) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_docs_have_examples() -> None:
    assert len(FOUND) >= 24 and len(EXAMPLES) >= 19, [e.place for e in FOUND]
    assert any(e.shown for e in EXAMPLES)
    assert set(EXIT) | SLOW <= {e.command for e in EXAMPLES}, "EXIT and SLOW name only examples the docs give"


@pytest.mark.parametrize(
    "example",
    [
        pytest.param(e, id=f"{e.place} {e.command}", marks=[pytest.mark.slow] if e.command in SLOW else [])
        for e in EXAMPLES
    ],
)
def test_example_runs_as_shown(
    example: Example, reader: None, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    if example.needs_user_files:
        request.getfixturevalue("workdir")
    code = main(example.argv)
    out, err = capsys.readouterr()
    expected = EXIT.get(example.command, 0)
    assert code == expected, f"{example.place}: `puzint {example.command}` exited with {code}, not {expected}\n{err}"
    missing = missing_lines(example.shown, out)
    assert not missing, (
        f"{example.place}: the docs show lines that `puzint {example.command}` does not print:\n"
        + "\n".join(missing)
        + f"\n--- it printed:\n{out}"
    )


# ---- the Python API's examples

API_BLOCKS = [b for b in code_blocks(ROOT / "docs" / "api.md") if b.language == "python"]


@pytest.mark.parametrize("block", API_BLOCKS, ids=[where(b.doc, b.line) for b in API_BLOCKS])
def test_api_example_runs_and_prints_what_it_says(
    block: Block, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exec(compile("\n".join(block.lines), where(block.doc, block.line), "exec"), {"__name__": "docs_api"})
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    said = [
        line.split("#", 1)[1].strip()
        for line in block.lines
        if line.startswith("print(") and "#" in line.split(")")[-1]
    ]
    assert said, "the block shows what it prints"
    at = 0
    for text in said:
        assert text in printed[at:], f"docs/api.md says a print gives {text!r}; it printed {printed}"
        at = printed.index(text, at) + 1


# ---- links, paths and words


LINKS = [(doc, line, target) for doc in DOCS for line, target in markdown_links(doc)]


def test_every_relative_link_leads_into_the_repository() -> None:
    broken = []
    for doc, line, target in LINKS:
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.is_relative_to(ROOT) or not file.exists():
            broken.append(f"{where(doc, line)}: {target} (no such file in the repository)")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{where(doc, line)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)
    assert len(LINKS) >= 8


def test_every_repository_path_the_prose_names_exists() -> None:
    named = [
        (doc, line, code.rstrip("/"))
        for doc in DOCS
        for line, code in inline_code(doc)
        if re.fullmatch(r"(?:interpreter|specs|docs|benchmarks|tests|grammar)/[\w./-]*", code)
    ]
    missing = [f"{where(d, n)}: {p}" for d, n, p in named if p not in HISTORICAL and not (ROOT / p).exists()]
    assert not missing, "\n".join(missing)
    outside = [f"{where(d, n)}: {c}" for d in DOCS for n, c in inline_code(d) if re.match(r"/(?:work|tmp|home)/", c)]
    assert not outside, "paths outside the repository:\n" + "\n".join(outside)
    assert len(named) >= 20


@pytest.mark.parametrize("spec", sorted(SPECS.glob("*.puz")), ids=lambda p: p.name)
def test_the_about_line_speaks_to_the_reader(spec: Path) -> None:
    about = [line for line in spec.read_text(encoding="utf-8").splitlines() if line.startswith("about ")]
    assert len(about) <= 1
    for line in about:
        assert not JARGON.search(line), f"{spec.name}: {line}"


def test_the_expectation_files_point_nowhere_outside() -> None:
    """Shipped with the specs as examples of expectation files: no references to files elsewhere."""
    for expected in sorted(SPECS.glob("*.yaml")):
        text = expected.read_text(encoding="utf-8")
        assert not re.search(r"\.\./shared|/work/|PUZZLES\.md|\bseed \d", text), expected.name
