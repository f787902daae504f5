"""The grammar and parser: every spec and catalogue draft parses, into the model we expect."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from lark import Lark, logger
from puzint.errors import SpecError
from puzint.language import syntax as s
from puzint.language.indenter import PuzIndenter
from puzint.language.parser import keywords, parse
from puzint.language.tables import GRAMMAR_FILE

ROOT = Path(__file__).resolve().parents[2]
ALL_SPECS = sorted((ROOT / "specs").glob("*.puz")) + sorted((ROOT / "docs" / "catalogue").glob("*.puz"))


def test_grammar_has_no_lalr_conflicts(caplog: pytest.LogCaptureFixture) -> None:
    logger.setLevel(logging.DEBUG)
    with caplog.at_level(logging.DEBUG, logger="lark"):
        Lark((ROOT / "grammar" / GRAMMAR_FILE).read_text(), parser="lalr", postlex=PuzIndenter(), debug=True)
    conflicts = [r.message for r in caplog.records if "conflict" in r.message.lower()]
    assert conflicts == []


@pytest.mark.parametrize("path", ALL_SPECS, ids=[p.stem for p in ALL_SPECS])
def test_every_spec_and_catalogue_draft_parses(path: Path) -> None:
    spec = parse(path.read_text(encoding="utf-8"), str(path))  # a level file is read beside it
    assert any(isinstance(x, (s.Move, s.If, s.Fill, s.Tile)) for x in spec.statements)


def test_frog_model() -> None:
    spec = parse((ROOT / "specs" / "frog.puz").read_text(), "frog.puz")
    params = [x for x in spec.statements if isinstance(x, s.Param)]
    assert [(p.name, p.default) for p in params] == [("n", s.Num(s.Pos(4, 11, 1), 3))]
    moves = [x for x in spec.statements if isinstance(x, s.Move)]
    assert [m.name for m in moves] == ["slide", "jump", "slide", "jump"]
    jump = moves[1].form
    assert isinstance(jump, s.Rewrite)
    assert [item.text for item in jump.lhs[0].items] == ["B", "W", "_"]  # type: ignore[union-attr]
    assert jump.along is not None and [d.name for d in jump.along] == ["right"]
    assert moves[1].pos == s.Pos(15, 6, 4)


def test_windows_and_variables() -> None:
    spec = parse("move pair: ?x ?y ... _ _ -> _ _ ... ?x ?y\n")
    (move,) = spec.statements
    assert isinstance(move, s.Move) and isinstance(move.form, s.Rewrite)
    assert len(move.form.lhs) == 2 and len(move.form.rhs) == 2
    assert move.form.lhs[0].items == (s.Var(s.Pos(1, 12, 2), "x"), s.Var(s.Pos(1, 15, 2), "y"))
    assert move.form.along is None


def test_directions_after_along_and_actions_after_a_form() -> None:
    (move,) = parse("move drive: slide ?v along left, right if ?v.width > 1\n").statements
    assert isinstance(move, s.Move) and isinstance(move.form, s.SlideForm)
    assert [d.name for d in move.form.along + move.more_directions] == ["left", "right"]
    assert len(move.guards) == 1 and not move.actions
    (move,) = parse("move pour: let k = min(?a, ?b.max - ?b), set ?a = ?a - k, set ?b = ?b + k\n").statements
    assert isinstance(move, s.Move) and move.form is None
    assert [type(a).__name__ for a in move.actions] == ["Let", "SetCounter", "SetCounter"]


def test_pictures_mark_squares_without_cells() -> None:
    (board,) = parse("board:\n    . _ _ .\n    _ _ _ _\n").statements
    assert isinstance(board, s.BoardPicture) and len(board.rows) == 2
    assert isinstance(board.rows[0].items[0], s.NoCells)


def test_repeat_and_group_layouts() -> None:
    (decl,) = parse("start (B W)*n _ _\n").statements
    assert isinstance(decl, s.LayoutDecl)
    group, _, _ = decl.rows[0].items
    assert isinstance(group, s.Repeat) and isinstance(group.item, s.Group)
    assert group.times == s.Name(s.Pos(1, 13, 1), "n")


def test_picture_layout_has_one_layout_per_row() -> None:
    (decl,) = parse("goal:\n    W W W\n    _ _ _\n    B B B\n").statements
    assert isinstance(decl, s.LayoutDecl) and decl.which == "goal" and len(decl.rows) == 3


def test_if_else_blocks_and_comments() -> None:
    text = 'param t = "a"  # a comment\nif t == "a":\n    # inside\n    goal A\nelse:\n    goal B\n'
    _, cond = parse(text).statements
    assert isinstance(cond, s.If)
    assert len(cond.then) == 1 and len(cond.otherwise) == 1


def test_expression_precedence() -> None:
    (param,) = parse("param x = 1 + 2 * 3 - 4\n").statements
    assert isinstance(param, s.Param)
    top = param.default
    assert isinstance(top, s.Binary) and top.op == "-"
    assert isinstance(top.left, s.Binary) and top.left.op == "+"
    assert isinstance(top.left.right, s.Binary) and top.left.right.op == "*"


def test_quantifier_predicates_parse() -> None:
    text = (
        "safe everywhere:\n    every wife w here: (some husband h here: h.couple == w.couple) or no husband is here\n"
    )
    (safe,) = parse(text).statements
    assert isinstance(safe, s.Safe) and safe.scope == "everywhere"
    (cond,) = safe.conditions
    assert isinstance(cond, s.Quantified) and cond.quantifier == "every"
    assert cond.binder.var is not None and cond.binder.var.name == "w"
    assert isinstance(cond.body, s.Binary) and cond.body.op == "or"
    assert isinstance(cond.body.right, s.Quantified) and cond.body.right.body is None


def test_a_long_expression_may_wrap_inside_parentheses() -> None:
    (param,) = parse("param x = (1 +\n    2)\n").statements
    assert isinstance(param, s.Param) and isinstance(param.default, s.Binary)


def test_missing_final_newline_is_fine() -> None:
    assert len(parse("board line 3").statements) == 1


def test_a_picture_s_rows_may_be_indented_unevenly() -> None:
    """Right-aligned numbers: every line indented past `start:` is a row of its picture;
    outside pictures an uneven dedent is still an error."""
    (decl, after) = parse("start:\n     1  2  3\n    10 11 12\n  7 8 9\ngoal A\n").statements
    assert isinstance(decl, s.LayoutDecl) and len(decl.rows) == 3 and isinstance(after, s.LayoutDecl)
    with pytest.raises(SpecError, match="this line's indentation matches no enclosing block"):
        parse('param t = "a"\nif t == "a":\n        goal A\n    goal B\n')


def test_move_names_may_end_with_primes() -> None:
    (move,) = parse("move U': ?a _ -> _ ?a along right\n").statements
    assert isinstance(move, s.Move) and move.name == "U'"


def test_the_docs_list_every_word_of_the_language() -> None:
    text = (ROOT / "docs" / "language.md").read_text()
    marker = "<!-- reserved words: kept equal to the grammar's by tests/language/test_parser.py -->"
    listed = text.split(marker)[1].split(".\n")[0]
    assert sorted(w.strip().strip("`") for w in listed.split(",")) == sorted(keywords())


def test_a_word_of_the_language_used_as_a_name_is_pointed_at() -> None:
    with pytest.raises(SpecError) as err:
        parse('piece A block "a block"\n')
    (diagnostic,) = err.value.diagnostics
    assert (diagnostic.pos.line, diagnostic.pos.column) == (1, 9)
    assert diagnostic.message == "'block' is a word of the language and cannot be a name here"
