"""Opening every page of a built site in Chromium at one width: what went wrong on each, and a screenshot
of each page that went wrong (of every page, when asked).

A page goes wrong when it logs a console error or throws, when a request it makes fails (no answer, or
an HTTP error), or when its layout hides content sideways: an element that cuts off what it holds
without a scroll bar (``overflow: hidden``, a hidden scroll bar, text ended with an ellipsis), an
element or a chart label that sticks out of the content area or of its chart, a page wider than the
window, or a box that scrolls sideways but is taller than the window, so that a reader sees its rows
cut off at the right and its scroll bar nowhere (a long wide table in the theme's wrapper). Content
wider than a box that scrolls it, with the scroll bar in sight, is fine: the reader can reach it. Only
the content column is measured; the theme's header and navigation shorten long titles with an
ellipsis by design.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

WIDTHS = (1400, 390)
"""A desktop window, and a phone's (the theme switches to its one-column layout below 1220 px and
puts the navigation in a drawer below 960)."""

HEIGHT = 900
"""The window's height: a box that scrolls sideways must fit in it for its scroll bar to be seen."""

SLACK = 1
"""Pixels of rounding allowed before a box counts as overflowing."""

LAYOUT_PROBE = """
(slack) => {
  const found = [];
  const name = (el) => {
    let text = el.tagName.toLowerCase();
    if (el.id) text += "#" + el.id;
    const classes = typeof el.className === "string" ? el.className.trim() : "";
    if (classes) text += "." + classes.split(/\\s+/).join(".");
    const words = (el.textContent || "").replace(/\\s+/g, " ").trim().slice(0, 60);
    return words ? `${text} "${words}"` : text;
  };
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + slack) {
    found.push(`the page is ${root.scrollWidth} px wide in a ${root.clientWidth} px window`);
  }
  const column = document.querySelector("article.md-content__inner");
  if (!column) return found;
  const area = (column.closest(".md-content") || column).getBoundingClientRect();
  const scrolls = (style) =>
    (style.overflowX === "auto" || style.overflowX === "scroll") && style.scrollbarWidth !== "none";
  const holder = (el) => {
    let up = el.parentElement;
    while (up && up !== column && getComputedStyle(up).overflowX === "visible") up = up.parentElement;
    return up;
  };
  const spilling = [];
  for (const el of [column, ...column.querySelectorAll("*")]) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.position === "fixed") continue;
    if (el instanceof SVGElement) {
      const chart = el.ownerSVGElement;
      if (el.tagName.toLowerCase() === "text" && chart) {
        const frame = chart.getBoundingClientRect();
        if (box.left < frame.left - slack || box.right > frame.right + slack) {
          found.push(`${name(el)} runs past its chart's edge (${Math.round(box.left - frame.left)} to ` +
            `${Math.round(box.right - frame.left)} px in a ${Math.round(frame.width)} px chart)`);
        }
      }
      continue;
    }
    const wide = el.scrollWidth > el.clientWidth + slack;
    if (wide && style.overflowX !== "visible" && !scrolls(style)) {
      found.push(`${name(el)} cuts off its content (${el.scrollWidth} px wide in ${el.clientWidth} px, ` +
        `no scroll bar)`);
      continue;
    }
    if (wide && scrolls(style) && box.height > window.innerHeight) {
      found.push(`${name(el)} scrolls sideways (${el.scrollWidth} px in ${el.clientWidth} px), but its ` +
        `scroll bar is ${Math.round(box.height)} px down, below the ${window.innerHeight} px window`);
    }
    if (el === column || holder(el) !== column) continue;
    const reach = wide && style.overflowX === "visible" ? box.left + el.clientLeft + el.scrollWidth : box.right;
    if (box.left < area.left - slack || reach > area.right + slack) spilling.push([el, reach]);
  }
  for (const [el, reach] of spilling) {
    if (spilling.some(([other]) => other !== el && el.contains(other))) continue;
    found.push(`${name(el)} reaches past the content area (to ${Math.round(reach - area.left)} px of ` +
      `${Math.round(area.width)} px), where nothing scrolls to it`);
  }
  return found;
}
"""
"""The layout measurement, run in the page: a list of sentences, one for each thing that hides content."""


def site_pages(folder: Path) -> list[str]:
    """Every HTML page of a built site, as paths relative to its folder, in a stable order."""
    return sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*.html"))


@dataclass
class PageWatch:
    """A browser page with what went wrong since the last :meth:`take`: console errors, uncaught
    exceptions and failed requests."""

    page: Any
    problems: list[str] = field(default_factory=list)
    pending: set[Any] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"uncaught: {error}"))
        self.page.on("request", lambda request: self.pending.add(request))
        self.page.on("requestfinished", self._finished)
        self.page.on("requestfailed", self._failed)
        self.page.on("response", self._response)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.problems.append(f"console error: {message.text}")

    def _finished(self, request: Any) -> None:
        self.pending.discard(request)

    def _failed(self, request: Any) -> None:
        """A request that got no answer. One the browser aborted is left out: the browser's own request
        for the favicon, asked for after the page has loaded, is aborted when the test moves on, and
        no fault of the site ends that way (a missing file answers 404, a refused one is refused)."""
        self.pending.discard(request)
        if request.failure != "net::ERR_ABORTED":
            self.problems.append(f"request failed: {request.url} ({request.failure})")

    def _response(self, response: Any) -> None:
        if response.status >= 400:
            self.problems.append(f"request failed: {response.url} (HTTP {response.status})")

    def settle(self, seconds: float = 10.0) -> None:
        """Wait until the requests the page started (its search index, images below the fold) have
        ended, so that leaving it aborts none of them; one still running after ``seconds`` is a
        problem."""
        deadline = time.monotonic() + seconds
        while self.pending and time.monotonic() < deadline:
            self.page.wait_for_timeout(20)
        self.problems += [f"request still running after {seconds:g} s: {r.url}" for r in self.pending]
        self.pending.clear()

    def take(self) -> list[str]:
        taken, self.problems = self.problems, []
        return taken


def shot_name(page_path: str) -> str:
    """A screenshot's file name for a page path: ``generated/models/x.html`` → ``generated-models-x``."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", page_path.removesuffix(".html"))


def check_pages(
    browser: Any,
    base_url: str,
    pages: list[str],
    width: int,
    shots: Path,
    *,
    shot: Callable[[str], bool] = lambda path: False,
) -> dict[str, list[str]]:
    """Open each page at ``width`` and return what went wrong, by page (pages with nothing wrong are left
    out). A screenshot of the whole page goes to ``shots`` for every page that went wrong, the evidence
    beside the report, and for every page ``shot`` accepts. A whole-page screenshot costs more than
    opening and measuring the page, so the suite takes them only where they are looked at."""
    context = browser.new_context(viewport={"width": width, "height": HEIGHT})
    try:
        watch = PageWatch(context.new_page())
        watch.page.set_default_timeout(20_000)
        shots.mkdir(parents=True, exist_ok=True)
        found: dict[str, list[str]] = {}
        for path in pages:
            watch.page.goto(base_url + path, wait_until="load")
            problems = [*watch.take(), *watch.page.evaluate(LAYOUT_PROBE, SLACK)]
            if problems or shot(path):
                watch.page.screenshot(path=str(shots / f"{shot_name(path)}.png"), full_page=True)
            watch.settle()
            problems += watch.take()
            if problems:
                found[path] = problems
        return found
    finally:
        context.close()
