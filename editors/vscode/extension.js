// The client: starts `puzint lsp` (or the command set in puz.server.command) for .puz files,
// and speaks the Language Server Protocol with it over its standard input and output. The
// default command and the language are read from package.json, so that the two cannot differ
// (tests/lsp/test_vscode.py runs this file with stand-ins for VS Code's modules, and starts
// the server as the client here would).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");
const manifest = require("./package.json");

const LANGUAGE = manifest.contributes.languages[0].id;
const DEFAULT_COMMAND = manifest.contributes.configuration.properties["puz.server.command"].default;

let client;

function activate() {
  const [command, ...args] = vscode.workspace.getConfiguration("puz").get("server.command", DEFAULT_COMMAND);
  client = new LanguageClient(
    "puz",
    "puzint language server",
    { command, args },
    { documentSelector: [{ language: LANGUAGE }] },
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
