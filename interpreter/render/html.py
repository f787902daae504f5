"""A solution as a web page with a slider: one board at a time, moved through with the
slider, the buttons or the arrow keys, or played at a steady pace. Everything is in the one
file (the boards as inline SVG, a few lines of script), so that it can be sent or published as
it is. Text from the spec is escaped as in the SVG: the page runs no spec text as markup."""

from __future__ import annotations

from ..compiler import CompiledPuzzle
from ..escapes import visible
from .svg import FONT, Panel, Path, solution_panels, standalone
from .xml_text import escape

SCRIPT = """
const steps = document.querySelectorAll(".step");
const slider = document.getElementById("slider");
const where = document.getElementById("where");
let timer = null;
function show(i) {
  i = Math.max(0, Math.min(steps.length - 1, i));
  steps.forEach((step, k) => { step.hidden = k !== i; });
  slider.value = i;
  where.textContent = i + " / " + (steps.length - 1);
}
function play() {
  if (timer) { clearInterval(timer); timer = null; return; }
  if (Number(slider.value) >= steps.length - 1) show(0);
  timer = setInterval(() => {
    const next = Number(slider.value) + 1;
    if (next >= steps.length) { clearInterval(timer); timer = null; } else show(next);
  }, 900);
}
slider.addEventListener("input", () => show(Number(slider.value)));
document.getElementById("back").addEventListener("click", () => show(Number(slider.value) - 1));
document.getElementById("on").addEventListener("click", () => show(Number(slider.value) + 1));
document.getElementById("play").addEventListener("click", play);
document.addEventListener("keydown", (e) => {
  // the slider, when it has the focus, would take the arrow a step too: the page's step alone
  if (e.key === "ArrowLeft") { e.preventDefault(); show(Number(slider.value) - 1); }
  if (e.key === "ArrowRight") { e.preventDefault(); show(Number(slider.value) + 1); }
  if (e.key === " ") { e.preventDefault(); play(); }
});
show(0);
"""


def solution_html(compiled: CompiledPuzzle, path: Path, title: str) -> str:
    return steps_html(title, solution_panels(compiled, path))


def steps_html(title: str, panels: list[Panel]) -> str:
    """The page: the drawings one at a time, the slider over them."""
    heading = escape(visible(title))
    steps = "\n".join(f'<div class="step"{" hidden" if i else ""}>{standalone(p)}</div>' for i, p in enumerate(panels))
    last = len(panels) - 1
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{heading}</title>
<style>
body {{ font-family: {FONT}; margin: 2em; color: #1a1a1a; }}
.controls {{ display: flex; gap: 0.6em; align-items: center; margin: 1em 0; }}
#slider {{ width: min(40em, 70vw); }}
</style>
</head>
<body>
<h1>{heading}</h1>
<div class="controls">
<button id="back" title="previous move (←)">◀</button>
<input id="slider" type="range" min="0" max="{last}" value="0" aria-label="move">
<button id="on" title="next move (→)">▶</button>
<button id="play" title="play or pause (space)">⏯</button>
<span id="where">0 / {last}</span>
</div>
{steps}
<script>{SCRIPT}</script>
</body>
</html>
"""
