// The hex grid in axial coordinates (q, r), pointy- or flat-topped (`orientation`), cells of
// size 1 (centre to corner). Ids come from `hexes` (the words actions use, e.g. "0,-1").
import { bounds } from "/static/boards/geometry.js";

const SQRT3 = Math.sqrt(3);

export function center(q, r, flat) {
  return flat ? [1.5 * q, SQRT3 * (r + q / 2)] : [SQRT3 * (q + r / 2), 1.5 * r];
}

export function layout(board) {
  const flat = board.orientation === "flat";
  const cells = (board.hexes || []).map((hx) => {
    const q = Number(hx.q), r = Number(hx.r);
    const [cx, cy] = center(q, r, flat);
    const points = [];
    for (let k = 0; k < 6; k++) {
      const angle = (Math.PI / 180) * (60 * k + (flat ? 0 : 30));
      points.push([cx + Math.cos(angle), cy + Math.sin(angle)]);
    }
    const id = hx.id !== undefined ? String(hx.id) : `${q},${r}`;
    return { id, kind: hx.kind ?? null, name: hx.name ?? id, label: hx.label ?? null, q, r, points, cx, cy };
  });
  const box = bounds(cells.map((c) => c.points));
  return { cells, lines: [], unit: 0.85, extras: [], viewBox: [box.x0 - 0.2, box.y0 - 0.2, box.w + 0.4, box.h + 0.4] };
}
