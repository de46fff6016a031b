"""The web server: JSON API, websockets, live tables, AI seats and persistence.

It reaches games only through the public contract (`bloodforge.load_game`, `State`), so every
registered game is playable in the browser once it has a UI module in `web/games/<id>.js`.
"""
