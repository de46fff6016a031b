// Plane geometry the board renderers share: cells around points (Voronoi, cut to a round shape
// so that edge cells stay compact), the segment two convex cells share, bounding boxes.

const EPS = 1e-9;

// Each point's Voronoi cell as a polygon, cut to a 24-gon around the point whose radius is
// `reach` times the distance to its nearest neighbour (cells at the edge stay compact).
export function voronoiCells(points, reach = 0.75) {
  const cells = [];
  for (let i = 0; i < points.length; i++) {
    const [x, y] = points[i];
    const dists = points.filter((_, j) => j !== i).map(([qx, qy]) => Math.hypot(qx - x, qy - y)).sort((a, b) => a - b);
    const radius = reach * (dists.length ? dists[0] : 1);
    let poly = [];
    for (let k = 0; k < 24; k++) poly.push([x + radius * Math.cos((2 * Math.PI * k) / 24), y + radius * Math.sin((2 * Math.PI * k) / 24)]);
    for (let j = 0; j < points.length && poly.length; j++) if (j !== i) poly = clipHalfPlane(poly, points[i], points[j]);
    cells.push(poly);
  }
  return cells;
}

// The part of convex `poly` closer to `a` than to `b` (Sutherland-Hodgman on the bisector).
function clipHalfPlane(poly, a, b) {
  const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
  const nx = b[0] - a[0], ny = b[1] - a[1];
  const side = (p) => (p[0] - mx) * nx + (p[1] - my) * ny;
  const out = [];
  for (let k = 0; k < poly.length; k++) {
    const cur = poly[k], nxt = poly[(k + 1) % poly.length];
    const sc = side(cur), sn = side(nxt);
    if (sc <= 0) out.push(cur);
    if ((sc < 0 && sn > 0) || (sn < 0 && sc > 0)) {
      const t = sc / (sc - sn);
      out.push([cur[0] + t * (nxt[0] - cur[0]), cur[1] + t * (nxt[1] - cur[1])]);
    }
  }
  return out;
}

function onBoundary(p, poly, tol) {
  for (let k = 0; k < poly.length; k++) {
    const a = poly[k], b = poly[(k + 1) % poly.length];
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (len < EPS) continue;
    const cross = Math.abs((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / len;
    if (cross > tol) continue;
    const dot = (p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1]);
    if (dot >= -tol * len && dot <= len * len + tol * len) return true;
  }
  return false;
}

// The longest segment two cells share (vertices of one lying on the other's outline), or null.
export function sharedEdge(c1, c2, tol) {
  const on = [];
  for (const p of c1) if (onBoundary(p, c2, tol)) on.push(p);
  for (const p of c2) if (onBoundary(p, c1, tol) && on.every((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) > tol)) on.push(p);
  if (on.length < 2) return null;
  let best = null, bestLen = 0;
  for (const p of on) for (const q of on) {
    const d = Math.hypot(p[0] - q[0], p[1] - q[1]);
    if (d > bestLen) { best = [p, q]; bestLen = d; }
  }
  return bestLen > 4 * tol ? best : null;
}

export function bounds(polygons) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const poly of polygons) for (const [x, y] of poly) {
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  }
  return { x0, y0, x1, y1, w: x1 - x0, h: y1 - y0 };
}

export function polygonArea(poly) {
  let twice = 0;
  for (let i = 0; i < poly.length; i++) {
    const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % poly.length];
    twice += x1 * y2 - x2 * y1;
  }
  return Math.abs(twice) / 2;
}

export function median(values) {
  const v = values.filter((x) => Number.isFinite(x) && x > 0).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : 1;
}

// Four decimals: with two, a board drawn in a unit square (Five Forts' 6x6 map, before boards
// were scaled to BOARD_UNITS) lost 2% of a cell (a row drawn from 0.17 to 0.33).
export const pointsAttr = (poly) => poly.map(([x, y]) => `${+x.toFixed(4)},${+y.toFixed(4)}`).join(" ");

// Board units: every layout is drawn with the larger side of its viewBox this long. Chromium
// keeps the area a drawn shape dirties in whole units of the SVG's own coordinates; on a board
// drawn in a unit square (the Kingdoms map, 0..1) one unit is the whole board, so any change,
// a single token, made Chromium re-raster all of it (12 tiles at 1280x800: 7.3 ms against 0.3
// for the same change at 10 units or more, measured; docs/testing.md). At 1000 units a unit is
// about a screen pixel.
export const BOARD_UNITS = 1000;

// The layout scaled to BOARD_UNITS (points, centres, lines, extras, unit and viewBox alike);
// the picture is the same, its coordinates are larger.
export function toBoardUnits(lay) {
  const k = BOARD_UNITS / (Math.max(lay.viewBox[2], lay.viewBox[3]) || 1);
  const pt = ([x, y]) => [x * k, y * k];
  return {
    ...lay,
    cells: lay.cells.map((c) => ({ ...c, points: c.points.map(pt), cx: c.cx * k, cy: c.cy * k })),
    lines: lay.lines.map((l) => ({ ...l, points: l.points.map(pt), ...(l.control ? { control: pt(l.control) } : {}) })),
    extras: lay.extras.map((x) => ({ ...x, x: x.x * k, y: x.y * k })),
    unit: lay.unit * k,
    viewBox: lay.viewBox.map((v) => v * k),
  };
}
