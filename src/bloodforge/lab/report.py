"""An HTML report of lab results: tables with intervals and matplotlib plots, in one file.

Plots are PNGs embedded as data URIs so the report is a single file to mail or attach to an
issue. matplotlib is an optional dependency (`bloodforge[lab]`): the import happens only here.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from typing import Any

plt: Any
try:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
except ImportError:  # pragma: no cover - exercised only without the extra
    plt = None


def _need_matplotlib() -> None:
    if plt is None:
        raise ValueError("the HTML report needs matplotlib: pip install 'bloodforge[lab]'")


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def _png_bytes(data_uri: str) -> bytes:
    return base64.b64decode(data_uri.split(",", 1)[1])


def _sweep_plot(sweep: dict[str, Any], s: dict[str, Any]) -> str:
    """Win rate of each seat (or side, in an asymmetric game) against the swept value, with
    95% Wilson intervals as error bars; the base's rate as a dashed line per seat."""
    values = sweep["values"]
    points = s["variants"][-len(values):]
    fig, ax = plt.subplots(figsize=(7, 4))
    roles = sweep.get("seat_roles") or []
    for i, seat in enumerate(sorted(points[0]["seats"], key=int)):
        name = roles[int(seat)] if int(seat) < len(roles) and roles[int(seat)] else f"seat {int(seat) + 1}"
        rates = [p["seats"][seat] for p in points]
        ys = [r["rate"] for r in rates]
        err = [[y - r["low"] for y, r in zip(ys, rates, strict=True)],
               [r["high"] - y for y, r in zip(ys, rates, strict=True)]]
        line = ax.errorbar(values, ys, yerr=err, fmt="o-", capsize=4, label=name, color=f"C{i}")
        base = s["variants"][0]["seats"].get(seat)
        if base is not None and len(s["variants"]) > len(values):
            ax.axhline(base["rate"], linestyle="--", linewidth=1, color=line[0].get_color())
    ax.set_ylim(0, 1)
    if len(values) <= 12:
        ax.set_xticks(values, [f"{v:g}" for v in values])
    ax.set_xlabel(sweep.get("label", "value"))
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(f"win rate against {sweep.get('label', 'the value')} (dashed: the base)")
    ax.legend()
    return _png(fig)


def summary_plots(summary: dict[str, Any], sweep: dict[str, Any] | None = None) -> list[tuple[str, str, bytes]]:
    """The plots of `lab report` for one summary, as (name, title, PNG bytes): the matchup
    matrix and pair scores, or the seat and side win rates by variant; a sweep (`values`,
    `label`, `seat_roles`) adds win rate against the swept value. For the workbench, which
    shows them in the page."""
    _need_matplotlib()
    out: list[tuple[str, str, bytes]] = []
    if summary["kind"] == "matchup":
        keys = _keys(summary["agents"])
        out.append(("matrix", "Matchup matrix", _png_bytes(_matrix_plot(keys, summary["matrix"]))))
        by_label = dict(zip(summary["agents"], keys, strict=True))
        labels = [f"{by_label[p['a']]} vs {by_label[p['b']]}" for p in summary["pairs"]]
        if labels:
            out.append(("pairs", "Score of the first agent of each pair",
                        _png_bytes(_interval_plot(labels, summary["pairs"], "score of A", 0.5))))
        return out
    if sweep is not None and sweep.get("values"):
        out.append(("sweep", f"Win rate against {sweep.get('label', 'the value')}",
                    _png_bytes(_sweep_plot(sweep, summary))))
    seat_keys = sorted({k for v in summary["variants"] for k in v["seats"]}, key=int)
    labels, rates = [], []
    for v in summary["variants"]:
        for k in seat_keys:
            labels.append(f"{v['name']} / seat {int(k) + 1}")
            rates.append(v["seats"][k])
    out.append(("seats", "Seat win rate by variant",
                _png_bytes(_interval_plot(labels, rates, "seat win rate by variant", 0.5))))
    role_labels, role_rates = [], []
    for v in summary["variants"]:
        for role, r in v["roles"].items():
            role_labels.append(f"{v['name']} / {role}")
            role_rates.append(r)
    if role_labels:
        out.append(("sides", "Win rate by side",
                    _png_bytes(_interval_plot(role_labels, role_rates, "win rate by side", 0.5))))
    return out


def _interval_plot(labels: Sequence[str], rates: Sequence[dict[str, Any]], title: str, ref: float | None) -> str:
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(labels) + 1.2))
    ys = list(range(len(labels)))
    xs = [r["rate"] for r in rates]
    lo = [r["rate"] - r["low"] for r in rates]
    hi = [r["high"] - r["rate"] for r in rates]
    ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", capsize=4, color="#7a1f1f")
    if ref is not None:
        ax.axvline(ref, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(ys, labels)
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("win rate (95% Wilson interval)")
    ax.set_title(title)
    return _png(fig)


def _matrix_plot(labels: Sequence[str], matrix: Sequence[Sequence[float]]) -> str:
    k = len(labels)
    share = [[0.5 if i == j else (matrix[i][j] / (matrix[i][j] + matrix[j][i]) if matrix[i][j] + matrix[j][i] else 0.5)
              for j in range(k)] for i in range(k)]
    fig, ax = plt.subplots(figsize=(1.2 * k + 2.5, 1.0 * k + 1.5))
    im = ax.imshow(share, vmin=0, vmax=1, cmap="RdYlGn")
    ax.set_xticks(range(k), labels, rotation=30, ha="right")
    ax.set_yticks(range(k), labels)
    for i in range(k):
        for j in range(k):
            ax.text(j, i, f"{share[i][j]:.2f}", ha="center", va="center", fontsize=9)
    fig.colorbar(im, ax=ax, label="row's score against column")
    ax.set_title("matchup matrix")
    return _png(fig)


def _elo(x: float | None, infinite: str) -> str:
    return infinite if x is None else f"{x:+.0f}"


def _esc(x: Any) -> str:
    return html.escape(str(x))


def _ci(r: dict[str, Any]) -> str:
    return f"{r['rate']:.3f} [{r['low']:.3f}, {r['high']:.3f}] ({r['games']})"


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    th = "".join(f"<th>{_esc(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def _keys(labels: Sequence[str]) -> list[str]:
    """Plot labels: the agents' own labels when short, else `#i name` (the key table gives the
    full label with its options; long options would squeeze the plot to nothing)."""
    if all(len(label) <= 24 for label in labels):
        return list(labels)
    return [f"#{i + 1} {label.split(':')[0]}" for i, label in enumerate(labels)]


def _matchup_section(s: dict[str, Any]) -> str:
    keys = _keys(s["agents"])
    parts = [f'<img src="{_matrix_plot(keys, s["matrix"])}" alt="matchup matrix">']
    if keys != list(s["agents"]):
        parts.append(_table(["key", "agent"], list(zip(keys, s["agents"], strict=True))))
    by_label = dict(zip(s["agents"], keys, strict=True))
    rows = []
    for p in s["pairs"]:
        sprt = p.get("sprt")
        verdict = "" if sprt is None else (
            f"{sprt['decision'] or 'undecided'} (H0 p={sprt['p0']}, H1 p={sprt['p1']}; LLR {sprt['llr']:.2f})"
            + "".join(f"; seat {k}: {v['decision'] or 'undecided'} after {v['games']} (LLR {v['llr']:.2f})"
                      for k, v in sprt.get("by_seat", {}).items()))
        elo = ("" if p["elo"] is None
               else f"{p['elo']:+.0f} [{_elo(p['elo_low'], '-inf')}, {_elo(p['elo_high'], '+inf')}]")
        seats = "; ".join(f"seat {k}{' (' + v['role'] + ')' if v.get('role') else ''}: {_ci(v)}"
                          for k, v in p["a_by_seat"].items())
        roles = "; ".join(f"{k}: {_ci(v)}" for k, v in p.get("a_by_role", {}).items())
        rows.append([p["a"], p["b"], _ci(p), elo, verdict, seats, roles])
    parts.append(_table(["A", "B", "A's score [95% CI] (games)", "Elo A-B [CI]", "SPRT", "A by seat",
                         "A by side / faction"], rows))
    parts.append(_table(["agent", "Bradley-Terry Elo (half a virtual draw per pair)"],
                        [[k, f"{v:+.0f}"] for k, v in s["elo"].items()]))
    parts.append(_table(["seat", "win rate of whoever sat there [95% CI] (games)"],
                        [[k, _ci(r)] for k, r in s.get("seats", {}).items()]))
    if s.get("roles"):
        parts.append(_table(["side / faction", "win rate of whoever played it [95% CI] (games)"],
                            [[k, _ci(r)] for k, r in s["roles"].items()]))
    pair_labels = [f"{by_label[p['a']]} vs {by_label[p['b']]}" for p in s["pairs"]]
    if pair_labels:
        parts.append(f'<img src="{_interval_plot(pair_labels, s["pairs"], "score of A", 0.5)}" alt="pairs">')
    return "".join(parts)


def _variants_section(s: dict[str, Any]) -> str:
    parts = []
    seat_keys = sorted({k for v in s["variants"] for k in v["seats"]})
    labels, rates = [], []
    for v in s["variants"]:
        for k in seat_keys:
            labels.append(f"{v['name']} / seat {k}")
            rates.append(v["seats"][k])
    parts.append(f'<img src="{_interval_plot(labels, rates, "seat win rate by variant", 0.5)}" alt="seats">')
    role_labels, role_rates = [], []
    for v in s["variants"]:
        for role, r in v["roles"].items():
            role_labels.append(f"{v['name']} / {role}")
            role_rates.append(r)
    if role_labels:
        parts.append(f'<img src="{_interval_plot(role_labels, role_rates, "win rate by side", 0.5)}" alt="roles">')
    rows = []
    for v in s["variants"]:
        roles = "; ".join(f"{k}: {_ci(r)}" for k, r in v["roles"].items())
        vs = v.get("vs_first")
        diff = "" if not vs else "; ".join(
            f"seat {k}: {d['diff']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}] p={d['p_value']:.3g}"
            for k, d in vs.items())
        rows.append([v["name"], v["games"], roles, v["draws"], v["mean_plies"], diff])
    parts.append(_table(["variant", "games", "win rate by side [95% CI]", "draws", "mean plies",
                         f"paired difference vs {s['baseline']}"], rows))
    names = sorted({k for v in s["variants"] for k in v.get("stats", {})})
    if names:
        parts.append("<p>The game's own statistics, mean per game:</p>")
        parts.append(_table(["statistic", *(v["name"] for v in s["variants"])],
                            [[k, *(f"{v.get('stats', {}).get(k, 0.0):.3g}" for v in s["variants"])] for k in names]))
    return "".join(parts)


CSS = """body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;font-size:14px}
th{background:#f3eded}h2{color:#7a1f1f}img{max-width:100%}"""


def render_report(docs: Sequence[dict[str, Any]], title: str = "bloodforge lab report") -> str:
    """HTML of one or more result documents (as written by `run_experiment`)."""
    _need_matplotlib()
    sections = []
    for doc in docs:
        exp = doc["experiment"]
        s = doc["summary"]
        run = doc.get("run", {})
        head = (f"<h2>{_esc(exp['name'])}</h2><p>{_esc(exp.get('description', ''))}</p>"
                f"<p>game <b>{_esc(exp['game'])}</b>, params {_esc(exp['params'])}, agents {_esc(exp['agents'])}, "
                f"{len(doc['games'])} games; {run.get('backend')} backend, {run.get('workers')} worker(s), "
                f"{run.get('wall_seconds')} s wall</p>")
        body = _matchup_section(s) if s["kind"] == "matchup" else _variants_section(s)
        sections.append(head + body)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{_esc(title)}</title>"
            f"<style>{CSS}</style></head><body><h1>{_esc(title)}</h1>{''.join(sections)}</body></html>\n")
