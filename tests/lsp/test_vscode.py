"""The VS Code extension (editors/vscode/): its manifest is one `vsce package` accepts (what it
activates on, the files it names exist, the grammar is the one for its language), and the
client it makes starts a server that answers. extension.js is run by Node with stand-ins for
VS Code's modules (no VS Code, no npm install), which record the client it makes; the server
is then started with that command and those arguments, over stdio as vscode-languageclient
does, and a spec with a mistake opened in the client's language gets its diagnostic."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .client import Client

EXTENSION = Path(__file__).resolve().parents[2] / "editors" / "vscode"
MANIFEST = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
NODE = shutil.which("node")
# Runs extension.js's activate() with `vscode` and `vscode-languageclient/node` replaced by
# stand-ins (the settings return the default given to them), and prints the client's options.
HARNESS = r"""
const Module = require("module");
const made = [];
class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) { made.push({ id, name, serverOptions, clientOptions }); }
  start() { return Promise.resolve(); }
  stop() { return Promise.resolve(); }
}
const stand_ins = {
  "vscode": { workspace: { getConfiguration: () => ({ get: (key, fallback) => fallback }) } },
  "vscode-languageclient/node": { LanguageClient },
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  return request in stand_ins ? stand_ins[request] : load.apply(this, arguments);
};
const extension = require(process.argv[1]);
Promise.resolve(extension.activate({ subscriptions: [] })).then(() => {
  console.log(JSON.stringify(made));
});
"""
BAD = 'puzzle "Bad"\nboard line 3\npiece B black\nstart B _ _\ngoal _ _ B\nmove go: B _ -> _ B along rihgt\n'


def test_the_manifest_is_one_vsce_accepts() -> None:
    assert {"name", "publisher", "version", "engines", "main", "contributes"} <= MANIFEST.keys()
    assert MANIFEST["engines"]["vscode"].startswith("^")
    assert (EXTENSION / MANIFEST["main"]).is_file()
    (language,) = MANIFEST["contributes"]["languages"]
    assert language["id"] == "puz" and language["extensions"] == [".puz"]
    assert MANIFEST["activationEvents"] == [f"onLanguage:{language['id']}"]
    json.loads((EXTENSION / language["configuration"]).read_text(encoding="utf-8"))
    (grammar,) = MANIFEST["contributes"]["grammars"]
    shipped = json.loads((EXTENSION / grammar["path"]).read_text(encoding="utf-8"))
    assert grammar["language"] == language["id"] and grammar["scopeName"] == shipped["scopeName"] == "source.puz"
    assert "vscode-languageclient" in MANIFEST["dependencies"]
    command = MANIFEST["contributes"]["configuration"]["properties"]["puz.server.command"]
    assert command["default"] == ["puzint", "lsp"]


def made_by_the_extension() -> dict[str, Any]:
    """The client extension.js makes when VS Code activates it."""
    if NODE is None:
        if os.environ.get("PUZINT_REQUIRE_NODE"):
            pytest.fail("Node.js is needed to run the VS Code extension's client (PUZINT_REQUIRE_NODE is set)")
        pytest.skip("Node.js is not installed: the extension's client cannot be run")
    done = subprocess.run(
        [NODE, "-e", HARNESS, str(EXTENSION / "extension.js")], capture_output=True, text=True, timeout=60, check=True
    )
    (client,) = json.loads(done.stdout)
    return dict(client)


def test_the_extension_s_client_starts_the_server_and_hears_its_diagnostics() -> None:
    client = made_by_the_extension()
    server, options = client["serverOptions"], client["clientOptions"]
    assert [server["command"], *server["args"]] == MANIFEST["contributes"]["configuration"]["properties"][
        "puz.server.command"
    ]["default"]
    assert "transport" not in server  # stdio, vscode-languageclient's default for a command
    language = MANIFEST["contributes"]["languages"][0]["id"]
    assert options["documentSelector"] == [{"language": language}]
    command = shutil.which(server["command"]) or shutil.which(server["command"], path=str(Path(sys.executable).parent))
    assert command is not None, f"{server['command']} is not installed beside {sys.executable}"
    lsp = Client([command, *server["args"]])
    try:
        lsp.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        lsp.notify("initialized", {})
        document = {"uri": "file:///specs/bad.puz", "languageId": language, "version": 1, "text": BAD}
        lsp.notify("textDocument/didOpen", {"textDocument": document})
        (diagnostic,) = lsp.notification("textDocument/publishDiagnostics", document["uri"])["diagnostics"]
        assert diagnostic["message"].startswith("a line of 3 cells has no direction 'rihgt' (did you mean 'right'?)")
        assert lsp.request("shutdown", None) is None
        lsp.notify("exit", None)
        assert lsp.process.wait(timeout=30) == 0
    finally:
        lsp.close()
