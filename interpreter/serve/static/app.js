// The playground's page: the editor (coloured by the TextMate grammar, marked with the
// server's diagnostics), the game (the board clicked, the moves listed, the keys), solve with
// its progress and the solution's steps. Everything the spec means is the server's to say.
"use strict";

const $ = (id) => document.getElementById(id);
const editor = $("editor"), highlight = $("highlight"), problemsList = $("problems");
const statusLine = $("status"), board = $("board"), movesList = $("moves");
const SVG = "http://www.w3.org/2000/svg";

let rules = [], levelRule = null; // the grammar, flattened
let problems = [];
let origin = ""; // the catalogue name or the named file the text came from
let game = null; // {id, moves}
let selected = null, chosen = -1;
let checking = null, searching = null, checkTimer = null;
let steps = [], stepTimer = null, solutionPage = "";
let completing = [], completed = 0, hoverTimer = null;
const pageId = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2));

// ---- colouring: the TextMate grammar's patterns, tried as an editor tries them

async function loadGrammar() {
  const grammar = await (await fetch("/static/puz.tmLanguage.json")).json();
  const flat = (patterns) => patterns.flatMap((p) => {
    if (p.include) return flat([grammar.repository[p.include.slice(1)]]);
    if (p.patterns) return flat(p.patterns);
    return [p];
  });
  for (const p of flat(grammar.patterns)) {
    if (p.begin) {
      levelRule = { ...p, re: new RegExp(p.begin, "dg") };
      rules.push(levelRule);
    } else {
      rules.push({ ...p, re: new RegExp(p.match, "dg") });
    }
  }
}

function tokenClass(scope) {
  const kind = (scope || "").split(".")[0];
  return ["comment", "string", "keyword", "entity", "variable", "constant", "punctuation"].includes(kind) ? "t-" + kind : "";
}

function colourLine(line, classes, state) {
  if (state.levelEnd) {
    if (!(state.levelEnd.test(line))) { classes.fill("t-string"); return; }
    state.levelEnd = null;
  }
  let pos = 0;
  while (pos < line.length) {
    let best = null, bestRule = null;
    for (const rule of rules) {
      rule.re.lastIndex = pos;
      const m = rule.re.exec(line);
      if (m && (best === null || m.index < best.index)) { best = m; bestRule = rule; }
    }
    if (!best) return;
    const end = best.index + best[0].length;
    if (bestRule.name) classes.fill(tokenClass(bestRule.name), best.index, end);
    const captures = bestRule.captures || bestRule.beginCaptures || {};
    for (const [group, capture] of Object.entries(captures)) {
      const at = best.indices[Number(group)];
      if (at) classes.fill(tokenClass(capture.name), at[0], at[1]);
    }
    if (bestRule === levelRule) {
      classes.fill("t-string", end);
      const indent = best[1].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      state.levelEnd = new RegExp(bestRule.end.replace("\\1", indent));
      return;
    }
    pos = end > pos ? end : pos + 1;
  }
}

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function repaint() {
  const lines = editor.value.split("\n");
  const marked = lines.map(() => []);
  for (const p of problems) {
    for (let l = p.line; l <= Math.min(p.end_line, lines.length - 1); l++) {
      const from = l === p.line ? p.character : 0;
      let to = l === p.end_line ? p.end_character : lines[l].length;
      if (to <= from) to = from + 1;
      marked[l].push([from, to]);
    }
  }
  const state = { levelEnd: null };
  const html = lines.map((line, l) => {
    const classes = new Array(line.length + 1).fill("");
    colourLine(line, classes, state);
    const wrong = new Array(line.length + 1).fill(false);
    for (const [from, to] of marked[l]) wrong.fill(true, from, to);
    const text = wrong[line.length] ? line + " " : line;
    let out = "", i = 0;
    while (i < text.length) {
      let j = i;
      while (j < text.length && classes[j] === classes[i] && wrong[j] === wrong[i]) j++;
      const cls = [classes[i], wrong[i] ? "problem" : ""].filter(Boolean).join(" ");
      const piece = escapeHtml(text.slice(i, j));
      out += cls ? `<span class="${cls}">${piece}</span>` : piece;
      i = j;
    }
    return out;
  });
  highlight.innerHTML = html.join("\n") + "\n ";
  highlight.scrollTop = editor.scrollTop;
  highlight.scrollLeft = editor.scrollLeft;
}

// ---- the server

async function post(path, body, signal) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}), signal,
  });
  if (!response.ok) throw new Error((await response.text()).trim() || response.statusText);
  return response;
}

function say(text, kind) {
  statusLine.textContent = text;
  statusLine.className = kind || "";
}

async function check() {
  if (checking) checking.abort();
  const mine = checking = new AbortController();
  try {
    const answer = await (await post("/api/check", { text: editor.value, origin, page: pageId }, mine.signal)).json();
    problems = answer.problems;
    problemsList.replaceChildren(...problems.map((p) => {
      const li = document.createElement("li");
      li.textContent = `${p.line + 1}:${p.character + 1}: ${p.message}`;
      li.addEventListener("click", () => goTo(p.line, p.character));
      return li;
    }));
    if (answer.stopped) problemsList.append(Object.assign(document.createElement("li"), { textContent: answer.stopped }));
    problemsList.dataset.checked = String(Date.now());
    showParams(answer.params, false);
    repaint();
  } catch (e) {
    if (e.name !== "AbortError") say(String(e.message), "error");
  }
}

function goTo(line, character) {
  const lines = editor.value.split("\n");
  let offset = character;
  for (let l = 0; l < line; l++) offset += lines[l].length + 1;
  editor.focus();
  editor.setSelectionRange(offset, offset);
}

// ---- hover and completion at the cursor: the language server's answers

function cursor() {
  const before = editor.value.slice(0, editor.selectionStart).split("\n");
  return { text: editor.value, line: before.length - 1, character: before[before.length - 1].length, page: pageId };
}

async function hoverAtCursor() {
  try {
    const answer = await (await post("/api/hover", cursor())).json();
    $("hover").textContent = (answer.hover || "").replace(/```puz\n|```/g, "").replace(/\*\*|`/g, "").trim();
  } catch (e) {
    $("hover").textContent = "";
  }
}

async function complete() {
  const asked = cursor();
  const answer = await (await post("/api/complete", asked)).json();
  const typed = /[A-Za-z0-9_']*$/.exec(editor.value.slice(0, editor.selectionStart))[0];
  completing = answer.items.filter((item) => item.label.startsWith(typed) && item.label !== typed);
  completed = 0;
  const list = $("completions");
  list.replaceChildren(...completing.map((item, i) => {
    const li = Object.assign(document.createElement("li"), { textContent: item.label });
    if (item.detail) li.append(Object.assign(document.createElement("small"), { textContent: item.detail }));
    li.addEventListener("mousedown", (e) => { e.preventDefault(); accept(i); });
    return li;
  }));
  list.hidden = completing.length === 0;
  markCompletion();
}

function markCompletion() {
  [...$("completions").children].forEach((li, i) => li.classList.toggle("chosen", i === completed));
}

function accept(i) {
  const item = completing[i];
  $("completions").hidden = true;
  completing = [];
  if (!item) return;
  const at = editor.selectionStart;
  const typed = /[A-Za-z0-9_']*$/.exec(editor.value.slice(0, at))[0];
  editor.setRangeText(item.label, at - typed.length, at, "end");
  editor.dispatchEvent(new Event("input"));
}

function completionKeys(e) {
  if (e.key === " " && e.ctrlKey) { e.preventDefault(); complete(); return true; }
  if ($("completions").hidden) return false;
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    e.preventDefault();
    completed = (completed + (e.key === "ArrowDown" ? 1 : completing.length - 1)) % completing.length;
    markCompletion();
    return true;
  }
  if (e.key === "Enter" || e.key === "Tab") { e.preventDefault(); accept(completed); return true; }
  if (e.key === "Escape") { $("completions").hidden = true; return true; }
  return false;
}

function showParams(params, replace) {
  if (!params) return;
  const form = $("params");
  const now = Object.fromEntries([...form.querySelectorAll("input")].map((i) => [i.name, i.value]));
  const names = Object.keys(params);
  if (!replace && names.join() === Object.keys(now).join()) return;
  form.replaceChildren(...names.map((name) => {
    const label = document.createElement("label");
    label.textContent = name + " ";
    const input = Object.assign(document.createElement("input"), { name, value: replace ? params[name] : (now[name] ?? params[name]) });
    input.dataset.default = params[name];
    label.append(input);
    return label;
  }));
}

function chosenParams() {
  const given = {};
  for (const input of $("params").querySelectorAll("input")) {
    if (input.value !== input.dataset.default) given[input.name] = input.value;
  }
  return given;
}

// ---- the game

function answered(answer) {
  if (answer.error) { say(answer.error, "error"); return false; }
  if (answer.stopped) { say("stopped: " + answer.stopped, "error"); return false; }
  if (answer.refused) { say(answer.refused, "error"); return false; }
  return true;
}

async function load() {
  try {
    const answer = await (await post("/api/game", { text: editor.value, origin, params: chosenParams() })).json();
    if (!answered(answer)) return;
    game = { id: answer.game };
    $("title").textContent = answer.title;
    showParams(answer.params, true);
    $("viewer").hidden = true;
    show(answer);
    board.focus();
  } catch (e) {
    say(String(e.message), "error");
  }
}

function show(view) {
  game.moves = view.moves;
  selected = null;
  chosen = -1;
  board.innerHTML = view.svg;
  const svg = board.querySelector("svg");
  if (svg) svg.addEventListener("click", clicked);
  movesList.replaceChildren(...view.moves.map((move, i) => {
    const li = document.createElement("li");
    const button = Object.assign(document.createElement("button"), { textContent: move.words + (move.cost ? ` (cost ${move.cost})` : "") });
    button.addEventListener("click", () => play(i));
    li.append(button);
    return li;
  }));
  if (view.left_out) movesList.append(Object.assign(document.createElement("li"), { textContent: `… and ${view.left_out} more` }));
  for (const why of view.forbidden) movesList.append(Object.assign(document.createElement("li"), { textContent: "forbidden: " + why, className: "forbidden" }));
  const played = `${view.played} move${view.played === 1 ? "" : "s"} played`;
  if (view.solved) say(`Solved! ${played}`, "solved");
  else say(`${played}; ${view.moves.length + (view.left_out || 0)} moves from here` + (view.moves.length ? "" : " (none: a dead end)"));
  board.dataset.played = String(view.played);
  board.dataset.solved = String(view.solved);
}

async function act(action, body) {
  if (!game) { await load(); if (!game) return; }
  try {
    const answer = await (await post(`/api/game/${game.id}/${action}`, body)).json();
    if (answered(answer)) show(answer);
  } catch (e) {
    say(String(e.message), "error");
  }
}

const play = (index) => act("play", { index });

function movesWhere(test) {
  return game.moves.map((m, i) => (test(m) ? i : -1)).filter((i) => i >= 0);
}

// The cells are the drawing's own: each cell's shape carries its name (data-cell), so that a
// click on a piece drawn over a cell finds the cell under it, whatever the board's shape.
const cellShapes = () => board.querySelectorAll("svg [data-cell]");
const shapeOf = (name) => [...cellShapes()].find((shape) => shape.dataset.cell === name);

function cellAt(event) {
  let best = null, distance = Infinity;
  for (const shape of cellShapes()) {
    const box = shape.getBoundingClientRect();
    const d = Math.max(Math.abs(box.x + box.width / 2 - event.clientX), Math.abs(box.y + box.height / 2 - event.clientY));
    if (d <= Math.max(box.width, box.height) / 2 && d < distance) { best = shape.dataset.cell; distance = d; }
  }
  return best;
}

function clicked(event) {
  const cell = cellAt(event);
  if (cell !== null) cellClicked(cell);
}

function cellClicked(cell) {
  const moving = (m, test) => m.movers.some(([, from, to]) => test(from, to));
  if (selected !== null) {
    const between = movesWhere((m) => moving(m, (from, to) => from === selected && to === cell));
    if (between.length === 1) return play(between[0]);
  }
  const from = movesWhere((m) => m.at === cell || moving(m, (f) => f === cell));
  if (from.length === 1) return play(from[0]);
  if (from.length > 1) return select(cell, from);
  const to = movesWhere((m) => moving(m, (_, t) => t === cell));
  if (to.length === 1) return play(to[0]);
  if (to.length > 1) return select(null, to);
  say(`no move from or to ${cell} here`);
}

function select(cell, choices) {
  selected = cell;
  const svg = board.querySelector("svg");
  svg.querySelectorAll(".mark").forEach((m) => m.remove());
  const mark = (shape, cls) => {
    const box = shape.getBBox(), rect = document.createElementNS(SVG, "rect");
    const at = { x: box.x + 2, y: box.y + 2, width: box.width - 4, height: box.height - 4, class: cls };
    Object.entries(at).forEach(([k, v]) => rect.setAttribute(k, v));
    shape.parentNode.append(rect); // in the cell's own frame: the drawing's geometry, not one of ours
  };
  if (cell !== null && shapeOf(cell)) mark(shapeOf(cell), "mark");
  for (const i of choices) for (const [, , to] of game.moves[i].movers) if (to && to !== cell && shapeOf(to)) mark(shapeOf(to), "mark target");
  choose(choices[0]);
  say(`${choices.length} moves: click where to go, or choose one below`);
}

function choose(i) {
  chosen = i;
  [...movesList.children].forEach((li, k) => li.classList.toggle("chosen", k === i));
}

async function hint() {
  if (!game) return;
  say("thinking…");
  try {
    const answer = await (await post(`/api/game/${game.id}/hint`)).json();
    if (!answered(answer)) return;
    if (answer.why) return say(answer.why);
    if (answer.index !== null) choose(answer.index);
    say(`hint: ${answer.words} (Enter plays it)`);
  } catch (e) {
    say(String(e.message), "error");
  }
}

// ---- solve: the progress as it comes, then the steps

async function solve() {
  if (!game) { await load(); if (!game) return; }
  if (searching) searching.abort();
  const mine = searching = new AbortController();
  $("cancel").disabled = false;
  say("solving…");
  try {
    const response = await post(`/api/game/${game.id}/solve`, {}, mine.signal);
    const reader = response.body.getReader(), decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.progress) say(`solving… ${message.progress.states.toLocaleString()} states (${message.progress.engine || "search"})`);
        if (message.answer) solved(message.answer);
      }
    }
  } catch (e) {
    say(e.name === "AbortError" ? "solve cancelled" : String(e.message), e.name === "AbortError" ? "" : "error");
  } finally {
    if (searching === mine) searching = null;
    $("cancel").disabled = true;
  }
}

function solved(answer) {
  if (answer.failed) return say(answer.failed, "error");
  if (!answered(answer)) return;
  say(`${answer.said} (${answer.states.toLocaleString()} states, ${answer.engine})`, answer.status === "solved" ? "solved" : "");
  steps = answer.steps;
  solutionPage = answer.page;
  $("viewer").hidden = steps.length === 0;
  $("step-slider").max = String(Math.max(0, steps.length - 1));
  step(0);
}

function step(i) {
  i = Math.max(0, Math.min(steps.length - 1, i));
  $("step-slider").value = String(i);
  $("steps").innerHTML = steps[i] || "";
  $("step-where").textContent = `${i} / ${steps.length - 1}`;
  $("viewer").dataset.step = String(i);
}

function animate() {
  if (stepTimer) { clearInterval(stepTimer); stepTimer = null; return; }
  if (Number($("step-slider").value) >= steps.length - 1) step(0);
  stepTimer = setInterval(() => {
    const next = Number($("step-slider").value) + 1;
    if (next >= steps.length) { clearInterval(stepTimer); stepTimer = null; } else step(next);
  }, 700);
}

// ---- files and links

function download(text, name, type) {
  const a = Object.assign(document.createElement("a"), { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function toLink(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromLink(code) {
  const binary = atob(code.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

function setText(text, from) {
  editor.value = text;
  origin = from;
  game = null;
  repaint();
  check();
}

async function open(name) {
  try {
    const answer = await (await fetch(`/api/spec?name=${encodeURIComponent(name)}`)).json();
    setText(answer.text, answer.name);
  } catch (e) {
    say(String(e.message), "error");
  }
}

async function listFiles() {
  const answer = await (await fetch("/api/files")).json();
  const options = [...answer.named.map((n) => [n, n]), ...answer.catalogue.map((n) => [n, "catalogue: " + n])];
  $("file").replaceChildren(...options.map(([value, text]) => Object.assign(document.createElement("option"), { value, textContent: text })));
  return answer;
}

async function save() {
  try {
    const answer = await (await post("/api/save", { name: origin, text: editor.value })).json();
    say(`saved to ${answer.saved}`);
  } catch (e) {
    say(String(e.message) + " (Download saves a copy anywhere)", "error");
  }
}

function share() {
  const link = `${location.origin}/#spec=${toLink(editor.value)}`;
  history.replaceState(null, "", link);
  Object.assign($("shared"), { value: link, hidden: false }).select();
  if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
  say("the link holds the spec's text: it is copied, and shown under the editor");
}

// ---- wiring

function typing(target) {
  return ["TEXTAREA", "INPUT", "SELECT"].includes(target.tagName);
}

document.addEventListener("keydown", (e) => {
  if (e.target === editor && completionKeys(e)) return;
  if (e.target === editor && e.key === "Enter" && e.ctrlKey) { e.preventDefault(); load(); return; }
  if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
  if (!$("viewer").hidden && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
    step(Number($("step-slider").value) + (e.key === "ArrowLeft" ? -1 : 1));
    return;
  }
  if (!game) return;
  const keys = { u: () => act("undo"), r: () => act("redo"), 0: () => act("restart"), h: hint, s: solve };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); return; }
  if (/^[1-9]$/.test(e.key) && Number(e.key) <= game.moves.length) { play(Number(e.key) - 1); return; }
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    e.preventDefault();
    const n = game.moves.length;
    if (n) choose(((chosen < 0 ? -1 : chosen) + (e.key === "ArrowDown" ? 1 : n - 1) + (chosen < 0 && e.key === "ArrowUp" ? 1 : 0)) % n);
  }
  if (e.key === "Enter" && chosen >= 0) play(chosen);
  if (e.key === "Escape") { selected = null; choose(-1); board.querySelectorAll(".mark").forEach((m) => m.remove()); }
});

editor.addEventListener("input", () => {
  repaint();
  if (!$("completions").hidden) complete();
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, 200);
});
for (const moved of ["keyup", "click"]) {
  editor.addEventListener(moved, () => { clearTimeout(hoverTimer); hoverTimer = setTimeout(hoverAtCursor, 300); });
}
editor.addEventListener("blur", () => { $("completions").hidden = true; });
editor.addEventListener("scroll", () => { highlight.scrollTop = editor.scrollTop; highlight.scrollLeft = editor.scrollLeft; });
$("load").addEventListener("click", load);
$("undo").addEventListener("click", () => act("undo"));
$("redo").addEventListener("click", () => act("redo"));
$("restart").addEventListener("click", () => act("restart"));
$("hint").addEventListener("click", hint);
$("solve").addEventListener("click", solve);
$("cancel").addEventListener("click", () => { if (searching) searching.abort(); });
$("step-prev").addEventListener("click", () => step(Number($("step-slider").value) - 1));
$("step-next").addEventListener("click", () => step(Number($("step-slider").value) + 1));
$("step-slider").addEventListener("input", () => step(Number($("step-slider").value)));
$("step-play").addEventListener("click", animate);
$("step-page").addEventListener("click", () => download(solutionPage, "solution.html", "text/html"));
$("open").addEventListener("click", () => open($("file").value));
$("save").addEventListener("click", save);
$("download").addEventListener("click", () => download(editor.value, (origin.split("/").pop() || "spec").replace(/\.puz$/, "") + ".puz", "text/plain"));
$("share").addEventListener("click", share);
window.addEventListener("pagehide", () => { if (searching) searching.abort(); if (checking) checking.abort(); });

(async () => {
  const [, files] = await Promise.all([loadGrammar(), listFiles()]);
  const asked = new URLSearchParams(location.search).get("open");
  if (location.hash.startsWith("#spec=")) setText(fromLink(location.hash.slice(6)), "");
  else if (asked) await open(asked);
  else await open(files.named[0] || "frog");
  document.body.dataset.ready = "true";
})();
