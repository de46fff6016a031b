"""The browser tests' pool of contexts (tests/e2e/browser.py): a context given back comes out
again as good as new, and two asked for at once are two."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.e2e.browser import new_context
from tests.server.support import ServerThread

SIZE = {"width": 1000, "height": 700}  # a size no other test asks for: this test's own contexts


def test_a_context_given_back_keeps_nothing_of_the_test_before(browser: Browser, server: ServerThread) -> None:
    first = new_context(browser, viewport=SIZE)
    page = first.new_page()
    page.goto(server.url + "/")
    page.evaluate("() => { localStorage.setItem('left', 'behind'); sessionStorage.setItem('s', '1'); }")
    first.add_cookies([{"name": "crumb", "value": "1", "url": server.url}])
    first.grant_permissions(["clipboard-read"], origin=server.url)
    first.close()
    assert page.is_closed(), "the test's pages close with its context"

    again = new_context(browser, viewport=SIZE)
    assert again is first, "the context is taken from the pool"
    fresh = again.new_page()
    fresh.goto(server.url + "/")
    left = fresh.evaluate("() => [localStorage.getItem('left'), sessionStorage.getItem('s'), document.cookie]")
    assert left == [None, None, ""]
    assert again.cookies() == []
    state = fresh.evaluate("async () => (await navigator.permissions.query({name: 'clipboard-read'})).state")
    assert state != "granted"
    assert len(again.pages) == 2, "the keeper page and the test's"
    again.close()
    again.close()  # closing twice is harmless


def test_two_contexts_asked_for_at_once_are_two(browser: Browser, server: ServerThread) -> None:
    one, two = new_context(browser, viewport=SIZE), new_context(browser, viewport=SIZE)
    assert one is not two
    a, b = one.new_page(), two.new_page()
    a.goto(server.url + "/")
    b.goto(server.url + "/")
    a.evaluate("() => localStorage.setItem('seat', 'a')")
    assert b.evaluate("() => localStorage.getItem('seat')") is None, "two players' browsers share no storage"
    one.close()
    two.close()
