// The client: starts `puzint lsp` (or the command set in puz.server.command) for .puz files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const [command, ...args] = vscode.workspace.getConfiguration("puz").get("server.command", ["puzint", "lsp"]);
  client = new LanguageClient(
    "puz",
    "puzint language server",
    { command, args },
    { documentSelector: [{ language: "puz" }] },
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
