// The area map: one cell per area (its polygon, or the Voronoi cell around its x, y point when
// it has none), a label, and lines from the adjacencies: where two touching cells are *not*
// adjacent a thick barrier is drawn along their shared edge, and adjacent areas whose cells do
// not touch get a dashed link from centre to centre, so every adjacency the rules use shows.
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
    if (!sharedEdge(ca.points, cb.points, tol)) lines.push({ kind: "link", a: ca.id, b: cb.id, points: [[ca.cx, ca.cy], [cb.cx, cb.cy]] });
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
