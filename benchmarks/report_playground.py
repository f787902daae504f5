"""The playground's figures for docs/playground.md: `puzint serve` started as a user starts it,
then

- the page's first load in headless Chromium (Debian's, driven by Playwright): from the
  navigation to the page ready (the grammar, the list of files and the spec fetched, the first
  diagnostics asked for), and to the first check answered;
- a play click's round trip in the browser: from the click on a move to the board drawn anew
  (the request, the worker's move and picture, the page's update), over many clicks;
- 20 clients playing at once (threads, each its own frog game over HTTP, a move then its
  undo, again and again): each click's round trip and the clicks answered a second.

Run: python benchmarks/report_playground.py [--clicks N] [--clients N] [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
FROG = (ROOT / "specs" / "frog.puz").read_text(encoding="utf-8")
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CLICK = """(target) => new Promise((done) => {
  const board = document.getElementById('board');
  const started = performance.now();
  const seen = new MutationObserver(() => { seen.disconnect(); done(performance.now() - started); });
  seen.observe(board, { attributes: true, attributeFilter: ['data-played'] });
  document.querySelector(target).click();
})"""


def started_server(jobs: int) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "puzint", "serve", "--jobs", str(jobs)], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    found = re.search(r"http://127\.0\.0\.1:\d+/", process.stdout.readline())
    assert found, "the server did not say its address"
    return process, found.group(0)


def spread(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):.1f} ms, 95th percentile {p95:.1f} ms, max {ordered[-1]:.1f} ms"


def browser(url: str, clicks: int) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for attempt in ("cold (the server's first page: its workers start)", "warm"):
            page = chromium.new_page()
            began = time.perf_counter()
            page.goto(url + "?open=frog")
            loaded = time.perf_counter()
            page.wait_for_selector("body[data-ready=true]", timeout=120_000)
            ready = time.perf_counter()
            page.wait_for_selector("#problems[data-checked]", state="attached", timeout=120_000)
            checked = time.perf_counter()
            print(
                f"first load, {attempt}: page loaded {1000 * (loaded - began):.0f} ms, ready (grammar, files, spec) "
                f"{1000 * (ready - began):.0f} ms, first diagnostics {1000 * (checked - began):.0f} ms"
            )
            page.close()
        page = chromium.new_page()
        page.goto(url + "?open=frog")
        page.wait_for_selector("body[data-ready=true]")
        page.click("#load")
        page.wait_for_selector("#board[data-played='0']", timeout=120_000)
        played, undone = [], []
        for _ in range(clicks):  # a move, then its undo: the game never reaches a dead end
            played.append(page.evaluate(CLICK, "#moves li button"))
            undone.append(page.evaluate(CLICK, "#undo"))
        print(f"a play click in the browser, click to board redrawn ({clicks} clicks): {spread(played)}")
        print(f"an undo click in the browser ({clicks} clicks): {spread(undone)}")
        chromium.close()


def client(url: str, rounds: int, times: list[float], failures: list[str]) -> None:
    origin = {"Origin": url.rstrip("/"), "Content-Type": "application/json"}
    with httpx.Client(base_url=url, headers=origin, timeout=120) as http:
        game = http.post("/api/game", content=json.dumps({"text": FROG})).json()["game"]
        for _ in range(rounds):
            for action, body in (("play", {"index": 0}), ("undo", {})):
                began = time.perf_counter()
                answer = http.post(f"/api/game/{game}/{action}", content=json.dumps(body))
                times.append(1000 * (time.perf_counter() - began))
                if answer.status_code != 200 or "svg" not in answer.json():
                    failures.append(answer.text[:200])


def crowd(url: str, clients: int, rounds: int) -> None:
    times: list[float] = []
    failures: list[str] = []
    with httpx.Client(base_url=url, headers={"Origin": url.rstrip("/")}, timeout=120) as http:
        http.post("/api/game", content=json.dumps({"text": FROG}))  # the workers started
    threads = [threading.Thread(target=client, args=(url, rounds, times, failures)) for _ in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - began
    print(
        f"{clients} clients playing at once ({len(times)} clicks in {seconds:.1f} s, "
        f"{len(times) / seconds:.0f} a second, {len(failures)} failed): {spread(times)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    process, url = started_server(args.jobs)
    try:
        browser(url, args.clicks)
        crowd(url, args.clients, args.rounds)
    finally:
        process.terminate()
        process.wait(10)


if __name__ == "__main__":
    main()
