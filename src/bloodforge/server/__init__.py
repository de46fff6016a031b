"""The web server: JSON API, websockets, live tables, AI seats and persistence.

It reaches games only through the public contract (`bloodforge.load_game`, `State`), so every
registered game is playable in the browser at once: the shared boards draw what its
`static_info()` declares, and its own `games/<id>/web/view.js` (if any) sets the look.
"""
