// The area map: one cell per area (its polygon, or the Voronoi cell around its x, y point when
// it has none), a label, and lines from the adjacencies: where two touching cells are *not*
// adjacent a thick barrier is drawn along their shared edge, and adjacent areas whose cells do
// not touch get a dashed link, so every adjacency the rules use shows. A link runs from border
// to border (the nearest corners of the two outlines, reaching a little into each area) and bows
// slightly, so links stay short and do not all meet in the areas' middles where labels and pieces
// sit (issue 18: centre-to-centre lines made the Kingdoms centre a tangle).
import { bounds, median, polygonArea, sharedEdge, voronoiCells } from "/static/boards/geometry.js";

export function layout(board) {
  const areas = board.areas || [];
  const computed = voronoiCells(areas.map((a) => [Number(a.x), Number(a.y)]));
  const cells = areas.map((a, i) => ({
    id: String(a.id), kind: a.kind ?? null, name: a.name ?? String(a.id), label: a.label ?? String(a.id),
    points: a.polygon && a.polygon.length >= 3 ? a.polygon.map(([x, y]) => [Number(x), Number(y)]) : computed[i],
    cx: Number(a.x), cy: Number(a.y),
  }));
  const box = bounds(cells.map((c) => c.points));
  // the scale of labels and pieces: a little over the radius of a circle as large as a typical cell
  const unit = 1.1 * median(cells.map((c) => Math.sqrt(polygonArea(c.points) / Math.PI)));
  const tol = Math.max(box.w, box.h) * 1e-3;
  const byId = new Map(cells.map((c) => [c.id, c]));
  const linked = new Set();
  const lines = [];
  for (const [a, b] of board.links || []) {
    const ca = byId.get(String(a)), cb = byId.get(String(b));
    if (!ca || !cb) continue;
    linked.add(`${ca.id} ${cb.id}`).add(`${cb.id} ${ca.id}`);
    if (!sharedEdge(ca.points, cb.points, tol)) lines.push({ kind: "link", a: ca.id, b: cb.id, ...connector(ca, cb, unit * 0.3) });
  }
  if (board.links) {
    for (let i = 0; i < cells.length; i++) for (let j = i + 1; j < cells.length; j++) {
      if (linked.has(`${cells[i].id} ${cells[j].id}`)) continue;
      const edge = sharedEdge(cells[i].points, cells[j].points, tol);
      if (edge) lines.push({ kind: "barrier", a: cells[i].id, b: cells[j].id, points: edge });
    }
  }
  const pad = unit * 0.3;
  return {
    cells, lines, unit, extras: [],
    viewBox: [box.x0 - pad, box.y0 - pad, box.w + 2 * pad, box.h + 2 * pad],
  };
}

// The short, slightly curved connector of two areas that do not touch: from the nearest pair of
// outline corners, each end pulled a little into its own area (toward its label point, by
// `reach`, a fraction of the board's unit) so the line is seen to reach both; the control point
// bows it to one side (the same side for a given pair, whatever the order of the link).
function connector(ca, cb, reach) {
  let best = null, bestD = Infinity;
  for (const p of ca.points) for (const q of cb.points) {
    const d = Math.hypot(p[0] - q[0], p[1] - q[1]);
    if (d < bestD - 1e-12) { best = [p, q]; bestD = d; }
  }
  const pull = (p, c) => {
    const dx = c.cx - p[0], dy = c.cy - p[1], len = Math.hypot(dx, dy) || 1;
    const k = Math.min(0.45, reach / len);
    return [p[0] + dx * k, p[1] + dy * k];
  };
  const [first, second] = ca.id < cb.id ? [ca, cb] : [cb, ca];
  const [pa, pb] = ca.id < cb.id ? best : [best[1], best[0]];
  const a = pull(pa, first), b = pull(pb, second);
  const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const nx = -(b[1] - a[1]) / (len || 1), ny = (b[0] - a[0]) / (len || 1);
  return { points: [a, b], control: [mx + nx * len * 0.12, my + ny * len * 0.12] };
}
