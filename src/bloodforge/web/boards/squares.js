// The square grid: `width` x `height` cells, row 0 at the top; ids, kinds and names from
// `cells` when given (else "col,row"), coordinates from `col_labels` / `row_labels`.
export function layout(board) {
  const w = Number(board.width), h = Number(board.height);
  const given = new Map((board.cells || []).map((c) => [`${c.col},${c.row}`, c]));
  const cells = [];
  for (let row = 0; row < h; row++) {
    for (let col = 0; col < w; col++) {
      const c = given.get(`${col},${row}`) || {};
      const id = c.id !== undefined ? String(c.id) : `${col},${row}`;
      cells.push({
        id, kind: c.kind ?? null, name: c.name ?? id, label: c.label ?? null, col, row, parity: (col + row) % 2,
        points: [[col, row], [col + 1, row], [col + 1, row + 1], [col, row + 1]], cx: col + 0.5, cy: row + 0.5,
      });
    }
  }
  const extras = [];
  (board.col_labels || []).forEach((text, col) => extras.push({ x: col + 0.5, y: h + 0.3, text: String(text), class: "coord" }));
  (board.row_labels || []).forEach((text, row) => extras.push({ x: -0.3, y: row + 0.5, text: String(text), class: "coord" }));
  const m = board.col_labels || board.row_labels ? 0.6 : 0.1;
  return { cells, lines: [], unit: 0.5, extras, viewBox: [-m, -0.1, w + m + 0.1, h + m] };
}
