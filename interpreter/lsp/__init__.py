"""The language server behind `puzint lsp`: what an editor shows while a spec is written.

It speaks the Language Server Protocol on standard input and output, so that any editor with
an LSP client (VS Code through editors/vscode/, Neovim, Emacs, Helix, Sublime) gets the same
help from the same code: the parser's, the elaborator's and the compiler's diagnostics as you
type, at their exact ranges, each "did you mean" with its quick fix; hover and go-to-definition
on the names a spec declares (parameters, pieces and their kinds, places, cells, counters,
groups, directions, shapes, moves), and hover on the words of the language (`words.py`); and
completion of what may be written at the cursor, as the grammar says (`context.py`).

Why pygls: it implements the protocol's framing, its life cycle (initialize, shutdown, exit),
document synchronisation and the position encodings negotiated with the client, with the
protocol's types from lsprotocol, so that this package holds only what is puzint's own:
reading a spec (`analysis.py`), in worker processes that a new edit or a time limit stops
(`worker.py`, `pool.py`), finding what it declares (`declarations.py`), answering hover,
definition and completion (`answers.py`), converting positions (`positions.py`), and
bounding what the client sends (`framing.py`: pygls would believe any Content-Length). pygls
is imported by `puzint lsp` only: no other command pays for it.
"""
