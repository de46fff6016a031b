"""Developer text on screen (issue 18, defect 7): what a player must never read.

`dev_text(text)` lists the offending words of a text; `page_dev_text(page)` scans what a page
shows a person: the body's visible text, tooltips (`title` attributes and SVG `<title>`s) and
`aria-label`s. Shared by the table tests and the lobby's.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page

#: (what it is, pattern). Each pattern names a kind of developer text the issue met on screen.
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("undefined", re.compile(r"\bundefined\b")),
    ("null", re.compile(r"\bnull\b")),
    ("NaN", re.compile(r"\bNaN\b")),
    ("[object ...]", re.compile(r"\[object \w+\]")),
    ("raw JSON", re.compile(r"\{\"\w+\":")),
    ("snake_case identifier", re.compile(r"(?<![\w/.#@-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/.-])")),
    ("rule code", re.compile(r"\bR-[A-Z]{2,}(?:-[A-Z0-9]+)*-\d+[a-z]?\b")),
    ("rulebook line", re.compile(r"\bL\d{2,4}\b")),
    ("arena rule number", re.compile(r"\bA\d{2,3}\b")),
    ("seat label", re.compile(r"\bP\d\b|\bseat (?:null|None|-1)\b")),
]


def dev_text(text: str) -> list[str]:
    """Every developer word in `text`, as "kind: match (in: context)"."""
    found = []
    for what, pattern in PATTERNS:
        for m in pattern.finditer(text):
            start, end = max(0, m.start() - 40), min(len(text), m.end() + 40)
            context = text[start:end].replace("\n", " | ")
            found.append(f"{what}: {m.group(0)!r} (in: {context!r})")
    return found


SCAN_JS = """() => {
  const out = [document.body.innerText];
  for (const node of document.querySelectorAll('[title]')) out.push(node.getAttribute('title'));
  for (const node of document.querySelectorAll('[aria-label]')) out.push(node.getAttribute('aria-label'));
  for (const node of document.querySelectorAll('svg title')) out.push(node.textContent);
  for (const node of document.querySelectorAll('dialog[open]')) out.push(node.innerText);
  return out.filter(Boolean).join('\\n');
}"""


def page_text(page: Page) -> str:
    """What a person can read on the page now, tooltips included."""
    text: str = page.evaluate(SCAN_JS)
    return text


def page_dev_text(page: Page) -> list[str]:
    return dev_text(page_text(page))


def assert_no_dev_text(page: Page, where: str) -> None:
    """No developer text on screen, and no game view that failed while drawing (the table page
    catches a view's error so that the page goes on, and marks it on the body)."""
    failed = page.evaluate("() => document.body.dataset.viewError || ''")
    assert not failed, f"the game's view failed in {where}: {failed}"
    found = page_dev_text(page)
    assert not found, f"developer text on screen in {where}:\n" + "\n".join(found[:25])
