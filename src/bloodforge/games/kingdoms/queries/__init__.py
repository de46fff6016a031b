"""Kingdoms of Blood's exported rule queries: pure functions of public facts (static info and
observations) that the rules use and the greedy policy may call (`queries.odds`, `queries.stats`).
Nothing here imports the rest of the game."""
