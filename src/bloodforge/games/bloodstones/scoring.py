"""Who won (rulebook, Ending The Game): most VP; ties to most villages on the map, then to most
VP from captured villages and citadels; anything still tied stays tied (shared returns)."""

from __future__ import annotations

from bloodforge.core import winners_share

from .model import Phase, Position


def final_returns(st: Position) -> list[float]:
    n = st.num_players
    if st.phase is not Phase.OVER:
        return [0.0] * n
    villages_on_map = [float(st.village_count(s)) for s in range(n)]
    return winners_share([float(v) for v in st.vp], [villages_on_map, [float(b) for b in st.end_bonus]])
