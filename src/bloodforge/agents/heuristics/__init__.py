"""Per-game heuristic policies used by the greedy agent (module name = game id)."""
