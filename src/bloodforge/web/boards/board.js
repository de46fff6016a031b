// The shared board: draws `static_info()["board"]` with the renderer of its geometry, what is on
// it from `observation()["board"]` (pieces stacked inside their cells, marks, the seat's hand),
// and turns clicks into legal actions. A click picks the next argument of the legal actions
// whose type fits (a cell: area/square/hex; a piece: unit; a hand item: its kind); one action
// left is played at once, several open a menu or wait for the next click. The game's view.js
// only gives the look (colours, glyphs, shapes; see docs/browser.md).
import { cardIn, clear, el, inOrder, reducedMotion, svg } from "/static/common.js";
import { CELL_TYPES, candidates, grammarMap, label as fillLabel, openArgs, parse, ready } from "/static/boards/actions.js";
import { layout as areasLayout } from "/static/boards/areas.js";
import { pointsAttr, toBoardUnits } from "/static/boards/geometry.js";
import { layout as hexesLayout } from "/static/boards/hexes.js";
import { layout as squaresLayout } from "/static/boards/squares.js";

const LAYOUTS = { areas: areasLayout, squares: squaresLayout, hexes: hexesLayout };
const KIND_FILLS = ["#e6dcc3", "#cfe0b4", "#b9d3e8", "#e8c9b4", "#d6c9e6", "#c9e6df", "#efe4a9", "#d9d9d9"];
const SEAT_COLOURS = ["#c0392b", "#2471a3", "#d49a00", "#7d3c98", "#117a8b", "#2e4053"];
const HAND_TYPES = new Set(["unit", "card", "tile"]);

export function hasBoard(staticInfo) {
  return Boolean(staticInfo?.board && LAYOUTS[staticInfo.board.geometry]);
}

// ctx: board, hand, menu (DOM elements), staticInfo, grammar, table, seat, act(text).
// look (optional, from the game's view.js): kinds {kind: {fill, glyph, label}}, seatColour(seat,
// view), piece(piece, view) -> {fill, text, sub, subSize, badge, shape, title, class}, mark(mark, view)
// -> the same or null (no glyph: the cell only gets the class `mark-<kind>`), handItem(item,
// view) -> nodes, handTitle(view) -> nodes, cellTitle(cell) -> text, legend [{symbol, text, fill?,
// owner?} or {swatch, text}] or legend(view) -> the same (redrawn with each view), pieceSize (a round token's
// largest radius in cell units; default 0.42).
export function createBoard(ctx, look = {}) {
  const board = ctx.staticInfo.board;
  const geometry = board.geometry;
  const cellType = CELL_TYPES[geometry];
  const lay = toBoardUnits(LAYOUTS[geometry](board));
  const u = lay.unit;
  const grammar = grammarMap(ctx.grammar);
  const cells = new Map(lay.cells.map((c) => [c.id, c]));
  const kindOrder = [...new Set([...Object.keys(board.kinds || {}), ...lay.cells.map((c) => c.kind).filter(Boolean)])];
  let view = null;
  let legal = [];
  let picks = [];

  // -- the board skeleton, drawn once ---------------------------------------------------------
  const root = svg("svg", {
    class: `map board-${geometry}`, viewBox: lay.viewBox.map((v) => +v.toFixed(3)).join(" "),
    role: "img", "aria-label": board.name || "board", dataset: { geometry },
  });
  root.style.setProperty("--u", String(u));
  const layers = Object.fromEntries(["cells", "lines", "highlights", "labels", "marks", "pieces", "extras"].map((n) => [n, svg("g", { class: n })]));
  root.append(...Object.values(layers));
  const nodes = new Map();
  const labelSpots = [];
  for (const c of lay.cells) {
    const poly = svg("polygon", {
      points: pointsAttr(c.points), fill: kindFill(c.kind),
      class: `cell${c.kind ? ` kind-${c.kind}` : ""}${c.parity !== undefined ? ` parity-${c.parity}` : ""}`,
      dataset: { cell: c.id, [cellType]: c.id }, "stroke-width": u * 0.04,
    });
    poly.append(svg("title", { text: look.cellTitle ? look.cellTitle(c) : cellTitle(c) }));
    poly.addEventListener("click", (ev) => onClick([{ value: c.id, type: cellType }], ev, c.name));
    poly.setAttribute("aria-label", c.name);
    poly.addEventListener("keydown", (ev) => keyClick(ev, poly));
    layers.cells.append(poly);
    nodes.set(c.id, poly);
    if (c.label) {
      // long names shrink to fit their cell's width (not below a readable floor: a name may then
      // reach over its border, and placeLabels keeps it off every other name)
      const text = String(c.label);
      const fit = (chars) => Math.min(u * 0.3, (reach(c).w * 2 * 0.92) / (chars * 0.6));
      let lines = [text], fs = fit(text.length);
      if (fs < u * 0.24 && text.includes(" ")) {
        // a long name of several words in a narrow cell reads better on two lines
        const mid = text.length / 2;
        const at = [...text.matchAll(/ /g)].map((m) => m.index).reduce((b, i) => (Math.abs(i - mid) < Math.abs(b - mid) ? i : b));
        const two = [text.slice(0, at), text.slice(at + 1)];
        const fs2 = fit(Math.max(two[0].length, two[1].length));
        if (fs2 > fs * 1.25) { lines = two; fs = fs2; }
      }
      labelSpots.push({ cell: c, text, lines, x: c.cx, y: c.cy - u * 0.5 - (lines.length - 1) * fs * 0.55, fs: Math.max(u * 0.17, fs), room: reach(c).w * 2 * 0.92 });
    }
    const glyph = look.kinds?.[c.kind]?.glyph;
    if (glyph) layers.labels.append(svg("text", { x: c.cx, y: c.cy + u * 0.78, class: "kind-glyph", "font-size": u * 0.3, text: glyph }));
  }
  for (const spot of labelSpots) {
    const attrs = { x: spot.x, y: spot.y, class: "cell-label", "font-size": spot.fs, "stroke-width": spot.fs * 0.22, dataset: { label: spot.cell.id } };
    spot.node = svg("text", spot.lines.length === 1 ? { ...attrs, text: spot.text } : attrs);
    if (spot.lines.length > 1) spot.lines.forEach((line, i) => spot.node.append(svg("tspan", { x: spot.x, dy: i ? "1.1em" : "0", text: line })));
    layers.labels.append(spot.node);
  }
  for (const line of lay.lines) {
    const [[x1, y1], [x2, y2]] = line.points;
    const attrs = { class: `line ${line.kind}`, "stroke-width": u * (line.kind === "barrier" ? 0.12 : 0.05), dataset: { a: line.a, b: line.b } };
    layers.lines.append(line.control
      ? svg("path", { ...attrs, d: `M${+x1.toFixed(4)} ${+y1.toFixed(4)} Q${+line.control[0].toFixed(4)} ${+line.control[1].toFixed(4)} ${+x2.toFixed(4)} ${+y2.toFixed(4)}`, fill: "none" })
      : svg("line", { ...attrs, x1, y1, x2, y2 }));
  }
  for (const x of lay.extras) layers.extras.append(svg("text", { x: x.x, y: x.y, class: x.class, "font-size": u * 0.5, "dominant-baseline": "middle", text: x.text }));
  clear(ctx.board).append(el("div", { class: "map-wrap" }, root), legendBox());
  arrangeLabels(labelSpots, u); // on the page now: the names' real sizes can be measured
  const zoom = zoomable(root, lay.viewBox, ctx.board);
  const cards = () => ctx.staticInfo?.cards || null;

  function kindFill(kind) {
    if (!kind) return KIND_FILLS[0];
    return look.kinds?.[kind]?.fill ?? KIND_FILLS[kindOrder.indexOf(kind) % KIND_FILLS.length];
  }

  function cellTitle(c) {
    const kind = c.kind ? board.kinds?.[c.kind]?.label ?? c.kind : "";
    return `${c.name}${kind && !c.name.includes(kind) ? ` · ${kind}` : ""}`;
  }

  // On a phone the legend would take a third of a small board: a "Legend" button opens it over
  // the board's foot and closes it again (app.css shows the legend itself on wide screens).
  function legendBox() {
    const box = legend();
    const wrap = el("div", { class: "legend-wrap" });
    const toggle = el("button", { type: "button", class: "legend-toggle small", "aria-expanded": "false", text: "Legend" });
    toggle.addEventListener("click", () => {
      const open = !wrap.classList.contains("open");
      wrap.classList.toggle("open", open);
      toggle.setAttribute("aria-expanded", String(open));
      toggle.textContent = open ? "Hide legend" : "Legend";
    });
    wrap.append(box, toggle);
    return wrap;
  }

  function legend() {
    const box = el("div", { class: "legend" });
    for (const kind of kindOrder) {
      const text = look.kinds?.[kind]?.label ?? board.kinds?.[kind]?.label ?? kind.replace(/_/g, " ");
      box.append(el("span", { class: "legend-item" }, el("span", { class: "swatch", style: `background:${kindFill(kind)}` }), text));
    }
    if (lay.lines.some((l) => l.kind === "barrier")) box.append(el("span", { class: "legend-item" }, el("span", { class: "swatch barrier" }), "no crossing"));
    if (lay.lines.some((l) => l.kind === "link")) box.append(el("span", { class: "legend-item" }, el("span", { class: "swatch link" }), "linked"));
    // what the look's symbols mean (units written "2i 1c", a fort's tower, a gem): [{symbol, text}]
    // look.legend may be a function of the view (the arena lists the figures on the board), and
    // an item may carry its token's fill (or owner, for the seat's colour)
    const items = typeof look.legend === "function" ? (view ? look.legend(view) : []) : look.legend;
    for (const item of items || []) {
      if (item.swatch) { // a tinted area (the arena's Environmental tiles): a swatch like the floor's
        box.append(el("span", { class: "legend-item" }, el("span", { class: "swatch", style: `background:${item.swatch}` }), String(item.text)));
        continue;
      }
      const fill = item.fill ?? (item.owner !== undefined && item.owner !== null ? seatColour(item.owner) : null);
      const style = fill ? `background:${fill};color:${lightFill(fill) ? "#2b2118" : "#ffffff"}` : undefined;
      box.append(el("span", { class: `legend-item${fill ? " legend-figure" : ""}` }, el("span", { class: "legend-symbol", style, text: String(item.symbol) }), String(item.text)));
    }
    return box;
  }
  function refreshLegend() {
    if (typeof look.legend !== "function") return;
    const old = ctx.board.querySelector(".legend-wrap > .legend");
    if (old) old.replaceWith(legend());
  }

  // Keyboard: cells and pieces that can be clicked take the focus (Tab) and Enter or Space
  // clicks them; the menu opens beside them.
  function keyClick(ev, node) {
    if (ev.key !== "Enter" && ev.key !== " ") return;
    ev.preventDefault();
    const box = node.getBoundingClientRect();
    node.dispatchEvent(new MouseEvent("click", { bubbles: true, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 }));
  }

  // How far a cell reaches left/right and up/down of its centre (half chords through it): a
  // stack is drawn within them, so it stays inside narrow and slanted cells too.
  function reach(c) {
    if (c.reach) return c.reach;
    const pts = c.points || [];
    let left = Infinity, right = Infinity, up = Infinity, down = Infinity;
    for (let i = 0; i < pts.length; i++) {
      const [x1, y1] = pts[i], [x2, y2] = pts[(i + 1) % pts.length];
      if ((y1 - c.cy) * (y2 - c.cy) <= 0 && y1 !== y2) {
        const x = x1 + ((c.cy - y1) / (y2 - y1)) * (x2 - x1);
        if (x <= c.cx) left = Math.min(left, c.cx - x); else right = Math.min(right, x - c.cx);
      }
      if ((x1 - c.cx) * (x2 - c.cx) <= 0 && x1 !== x2) {
        const y = y1 + ((c.cx - x1) / (x2 - x1)) * (y2 - y1);
        if (y <= c.cy) up = Math.min(up, c.cy - y); else down = Math.min(down, y - c.cy);
      }
    }
    const w = Math.min(left, right), h = Math.min(up, down);
    c.reach = { w: Number.isFinite(w) ? w : u, h: Number.isFinite(h) ? h : u };
    return c.reach;
  }

  // How far a cell reaches straight down from its centre (its outline's nearest crossing below).
  function below(c) {
    const pts = c.points || [];
    let down = Infinity;
    for (let i = 0; i < pts.length; i++) {
      const [x1, y1] = pts[i], [x2, y2] = pts[(i + 1) % pts.length];
      if ((x1 - c.cx) * (x2 - c.cx) <= 0 && x1 !== x2) {
        const y = y1 + ((c.cx - x1) / (x2 - x1)) * (y2 - y1);
        if (y > c.cy) down = Math.min(down, y - c.cy);
      }
    }
    return Number.isFinite(down) ? down : u;
  }

  // -- names and labels -------------------------------------------------------------------------
  const obsBoard = () => view?.observation?.board || {};
  // `v`: the view to colour by (the page's players panel is drawn before the board renders a
  // new view, and a look may colour by what the view says, such as a seat's faction)
  function seatColour(seat, v = view) {
    if (seat === null || seat === undefined) return "#555";
    return look.seatColour?.(seat, v) ?? board.seats?.find((s) => s.seat === seat)?.colour ?? SEAT_COLOURS[seat % SEAT_COLOURS.length];
  }

  function nameOf(value, type) {
    if (type === cellType || (type === "word" && cells.has(value))) return cells.get(value)?.name ?? value;
    if (type === "seat") return ctx.table?.seats?.[Number(value)]?.name ?? `seat ${value}`;
    const b = obsBoard();
    const named = board.names?.[value]
      ?? (b.pieces || []).find((p) => p.id === value)?.label
      ?? (b.hand || []).find((h) => h.id === value)?.label;
    return named ?? String(value).replace(/_/g, " ");
  }

  function label(text) {
    return fillLabel(parse(text, grammar), nameOf);
  }

  // -- clicks: picking arguments ------------------------------------------------------------------
  const actions = () => legal.map((t) => parse(t, grammar));

  function clickable() {
    const b = obsBoard();
    const out = lay.cells.map((c) => ({ value: c.id, type: cellType }));
    for (const p of b.pieces || []) if (p.id !== undefined && p.id !== null) out.push({ value: String(p.id), type: "unit" });
    for (const h of b.hand || []) out.push({ value: String(h.id), type: handType(h) });
    return out;
  }

  function handType(item) { return HAND_TYPES.has(item.kind) ? item.kind : "card"; }

  // `options`: what the click may mean, in order of preference (a piece, then its cell).
  function onClick(options, ev, title) {
    if (!view || !legal.length) return;
    const all = actions();
    for (const base of [picks, []]) {
      for (const opt of options) {
        const tried = [...base, opt];
        const found = candidates(all, tried);
        if (found.length) { choose(tried, found, ev, title); return; }
      }
      if (!picks.length) break;
    }
    picks = [];
    closeMenu();
    paint();
  }

  // One action ready: play it. Several: a menu of the ready ones. The picks stay, so a further
  // click can narrow the choice (the places it may go are highlighted).
  function choose(tried, found, ev, title) {
    closeMenu();
    const targets = clickable();
    const done = found.filter((a) => ready(a, tried, targets));
    if (found.length === 1 && done.length === 1) { picks = []; ctx.act(done[0].text); return; }
    picks = tried;
    paint();
    // A piece or hand item that can be selected is selected (its targets light up); a cell
    // offers what can be done there.
    const selects = tried.at(-1).type !== cellType && done.length < found.length;
    if (done.length && !selects) openMenu(done, ev, title);
  }

  function openMenu(found, ev, title) {
    const menu = clear(ctx.menu);
    menu.append(el("div", { class: "menu-title", text: title }));
    const sorted = found.slice().sort((a, b) => label(a.text).localeCompare(label(b.text), undefined, { numeric: true }));
    for (const a of sorted) {
      const card = cardIn(a.text, cards());
      menu.append(el("button", { type: "button", dataset: card ? { action: a.text, card } : { action: a.text }, onclick: () => { closeMenu(); picks = []; ctx.act(a.text); }, text: label(a.text) }));
    }
    menu.append(el("button", { type: "button", class: "muted", onclick: () => { closeMenu(); picks = []; paint(); }, text: "Close" }));
    menu.hidden = false;
    const x = Math.min(ev.clientX + 8, window.innerWidth - 300);
    const y = Math.min(ev.clientY + 8, window.innerHeight - menu.offsetHeight - 8);
    menu.style.left = `${Math.max(4, x)}px`;
    menu.style.top = `${Math.max(4, y)}px`;
    setTimeout(() => document.addEventListener("click", outside, { once: true }), 0);
  }

  function outside(ev) {
    if (!ctx.menu.contains(ev.target)) ctx.menu.hidden = true;
    else if (!ctx.menu.hidden) document.addEventListener("click", outside, { once: true });
  }

  function closeMenu() {
    ctx.menu.hidden = true;
    document.removeEventListener("click", outside, { once: true });
  }

  function reset() {
    closeMenu();
    if (!picks.length) return false;
    picks = [];
    paint();
    return true;
  }

  // -- drawing the observation ----------------------------------------------------------------
  function render(v, legalNow) {
    view = v;
    legal = legalNow || [];
    if (picks.length && !candidates(actions(), picks).length) picks = [];
    closeMenu();
    paint();
    refreshLegend();
  }

  function paint() {
    if (!view) return;
    const found = candidates(actions(), picks);
    const targets = clickable();
    const open = new Set();
    // For each candidate, the next thing to click: its first argument a click can still supply
    // (a unit before its destination, a tile before its area), as a person would go about it.
    for (const a of found) {
      const next = openArgs(a, picks, targets)[0];
      if (next) open.add(`${next.type}:${next.value}`);
    }
    const picked = new Set(picks.map((p) => `${p.type}:${p.value}`));
    const b = obsBoard();
    const markKinds = new Map();
    for (const m of b.marks || []) {
      if (!markKinds.has(String(m.at))) markKinds.set(String(m.at), new Set());
      markKinds.get(String(m.at)).add(m.kind);
    }
    const pieceCells = new Set((b.pieces || []).filter((p) => picked.has(`unit:${p.id}`)).map((p) => String(p.at)));
    clear(layers.highlights);
    for (const [id, node] of nodes) {
      const isLegal = open.has(`${cellType}:${id}`);
      const isSelected = picked.has(`${cellType}:${id}`) || pieceCells.has(id);
      node.classList.toggle("legal", isLegal);
      if (isLegal || isSelected) { if (node.getAttribute("tabindex") !== "0") node.setAttribute("tabindex", "0"); } else node.removeAttribute("tabindex");
      node.classList.toggle("selected", isSelected);
      // outlines on a layer of their own, so that neighbouring cells never cover them
      if (isLegal || isSelected) layers.highlights.append(svg("polygon", { points: node.getAttribute("points"), class: `hl ${isSelected ? "selected" : "legal"}` }));
      // only what changed: a class written again, even the same, restyles and repaints the cell
      const kinds = markKinds.get(id);
      for (const cls of [...node.classList]) if (cls.startsWith("mark-") && !kinds?.has(cls.slice(5))) node.classList.remove(cls);
      for (const k of kinds || []) if (!node.classList.contains(`mark-${k}`)) node.classList.add(`mark-${k}`);
    }
    drawPieces(b.pieces || [], open, picked);
    drawMarks(b.marks || []);
    drawHand(b.hand, open, picked);
  }

  // Where each piece was drawn last time (by its id, else owner, kind and label), so that a
  // piece that changed cells glides there briefly (never with prefers-reduced-motion).
  let lastSpots = new Map();
  // What each cell's pieces were drawn from, and their nodes: a cell whose pieces, looks and
  // highlights are the same as last time keeps its nodes. Redrawing every token on every
  // update made the browser lay out and repaint the whole board each time (in software that
  // is most of a move's rendering; a phone pays it in battery).
  let drawnCells = new Map();
  function drawPieces(pieces, open, picked) {
    const spotsNow = new Map();
    const moved = [];
    const byCell = group(pieces);
    const keep = new Map();
    const remember = (key, spot) => {
      if (!spotsNow.has(key)) spotsNow.set(key, []);
      spotsNow.get(key).push(spot);
    };
    for (const [at, list] of byCell) {
      const c = cells.get(at);
      if (!c) continue;
      const styles = list.map((p) => look.piece?.(p, view));
      const flags = list.map((p) => (p.id === undefined || p.id === null ? "" : `${open.has(`unit:${p.id}`) ? "o" : ""}${picked.has(`unit:${p.id}`) ? "p" : ""}`));
      const drawnKey = JSON.stringify([list, styles, flags, list.map((p) => seatColour(p.owner))]);
      const before = drawnCells.get(at);
      if (before && before.key === drawnKey) {
        keep.set(at, before);
        for (const d of before.drawn) { remember(d.key, { at, x: d.x, y: d.y }); moved.push(d); }
        continue;
      }
      const drawn = [];
      keep.set(at, { key: drawnKey, drawn });
      const n = list.length;
      const cols = Math.min(n, geometry === "areas" ? 2 : 3);
      const rows = Math.ceil(n / cols);
      // within the cell: start from the size the cell's chords allow, then shrink until every
      // token's corners lie inside the cell's outline
      const chipWide = styles.some((st) => st?.shape === "chip") ? 1.3 : 1;
      const { w, h } = reach(c);
      const dy = c.label ? u * 0.12 : 0;
      const place = (r) => list.map((p, i) => {
        const wide = styles[i]?.shape === "chip" ? 1.3 : 1; // chips are wider than tall
        const row = Math.floor(i / cols), col = i % cols;
        const inRow = Math.min(cols, n - row * cols);
        return { x: c.cx + (col - (inRow - 1) / 2) * r * 2.2 * wide, y: c.cy + (row - (rows - 1) / 2) * r * 2.2 + dy, wide };
      });
      // a look with look.pieceSize (the arena: one figure a hex, its name on it) lets round tokens
      // fill most of their cell: its circle, not its bounding square, must lie inside the cell
      const round = look.pieceSize && styles.every((st) => !st?.shape || st.shape === "circle");
      const fits = (r) => place(r).every(({ x, y, wide }) => {
        if (round) return [...Array(12).keys()].every((k) => inside(c.points, x + r * Math.cos(k * Math.PI / 6 + 0.1), y + r * Math.sin(k * Math.PI / 6 + 0.1)));
        const hw = wide > 1 ? 1.105 * r : r, hh = wide > 1 ? 0.765 * r : r;
        return [[x - hw, y - hh], [x + hw, y - hh], [x - hw, y + hh], [x + hw, y + hh]].every(([px, py]) => inside(c.points, px, py));
      });
      let r = Math.min(u * (look.pieceSize || 0.42), round && n === 1 ? Infinity : Math.min((u * 1.5) / (2 * Math.max(cols, rows) + 0.4), (w * 0.9) / (1.1 * cols * chipWide), (h * 0.9) / (1.1 * rows)));
      for (let k = 0; k < 10 && !fits(r); k++) r *= 0.88;
      const spots = place(r);
      list.forEach((p, i) => {
        const style = styles[i];
        const { x, y, wide } = spots[i];
        const id = p.id !== undefined && p.id !== null ? String(p.id) : null;
        const g = token(p, x, y, r * (wide > 1 ? 0.85 : 1), style, "piece");
        g.dataset.at = at;
        const key = id ?? `${p.owner ?? ""}|${p.kind ?? ""}|${p.label ?? ""}`;
        remember(key, { at, x, y });
        const d = { key, at, x, y, g };
        moved.push(d);
        drawn.push(d);
        const card = p.card ?? (cards() && Object.prototype.hasOwnProperty.call(cards(), String(p.kind)) ? String(p.kind) : null);
        if (card && cards()?.[card]) {
          g.setAttribute("data-card", card);
          if (!g.hasAttribute("tabindex")) g.setAttribute("tabindex", "0");
        }
        if (p.owner !== undefined && p.owner !== null) g.dataset.owner = String(p.owner);
        if (id !== null) {
          g.dataset.unit = id;
          g.classList.toggle("legal", open.has(`unit:${id}`));
          g.classList.toggle("selected", picked.has(`unit:${id}`));
        }
        const options = id !== null ? [{ value: id, type: "unit" }, { value: at, type: cellType }] : [{ value: at, type: cellType }];
        g.addEventListener("click", (ev) => onClick(options, ev, id !== null ? nameOf(id, "unit") : c.name));
        if (id !== null && (open.has(`unit:${id}`) || picked.has(`unit:${id}`))) {
          g.setAttribute("tabindex", "0");
          g.setAttribute("role", "button");
          g.setAttribute("aria-label", style?.title ?? p.label ?? id);
          g.addEventListener("keydown", (ev) => keyClick(ev, g));
        }
        layers.pieces.append(g);
      });
    }
    drawnCells = keep;
    inOrder(layers.pieces, [...keep.values()].flatMap((k) => k.drawn.map((d) => d.g)));
    animateMoves(moved, spotsNow);
  }

  function animateMoves(drawn, spotsNow) {
    const before = lastSpots;
    lastSpots = spotsNow;
    if (!before.size || reducedMotion()) return;
    for (const [key, now] of spotsNow) {
      const old = before.get(key);
      if (!old) continue;
      const oldCells = new Set(old.map((s) => s.at)), nowCells = new Set(now.map((s) => s.at));
      const left = old.filter((s) => !nowCells.has(s.at));
      const arrived = drawn.filter((d) => d.key === key && !oldCells.has(d.at));
      if (!left.length || !arrived.length || arrived.length > 6) continue;
      arrived.forEach((d, i) => {
        const from = left[Math.min(i, left.length - 1)];
        d.g.classList.add("moving");
        const glide = d.g.animate?.([{ transform: `translate(${from.x - d.x}px, ${from.y - d.y}px)` }, { transform: "translate(0px, 0px)" }],
          { duration: 380, easing: "ease-out" });
        // the node may be kept for later updates (drawPieces): it is no longer moving then
        if (glide) glide.onfinish = () => d.g.classList.remove("moving"); else d.g.classList.remove("moving");
      });
    }
  }

  // Marks are kept per cell as pieces are (drawPieces).
  let markedCells = new Map();
  function drawMarks(marks) {
    const keep = new Map();
    for (const [at, list] of group(marks)) {
      const c = cells.get(at);
      if (!c) continue;
      const shown = list.map((m) => [m, look.mark ? look.mark(m, view) : {}]).filter(([, l]) => l !== null && l !== undefined);
      const drawnKey = JSON.stringify([shown, shown.map(([m]) => seatColour(m.owner))]);
      const before = markedCells.get(at);
      if (before && before.key === drawnKey) {
        keep.set(at, before);
        continue;
      }
      const drawn = [];
      keep.set(at, { key: drawnKey, drawn });
      // grid cells with a name: the marks go in a row at the bottom, so they never cover it;
      // that row stays inside the cell (the chord below its centre), else a fort or a resource
      // on a square drawn as an area sits on the border and seems to belong to the next one
      const low = c.label && (geometry !== "areas" || String(c.label).length > 4);
      const r = low ? Math.min(u * 0.2, Math.max(u * 0.12, below(c) * 0.2)) : u * 0.2;
      const lowY = c.cy + Math.min(u * 0.74, below(c) - r * 1.12);
      shown.forEach(([m, l], i) => {
        const x = c.cx + (c.label && !low ? u * 0.45 + i * r * 2.3 : (i - (shown.length - 1) / 2) * r * 2.3);
        const y = low ? lowY : c.cy - u * (c.label ? 0.55 : 0.62);
        const g = token(m, x, y, r, { shape: "diamond", ...l }, "mark");
        g.dataset.at = at;
        layers.marks.append(g);
        drawn.push(g);
      });
    }
    markedCells = keep;
    inOrder(layers.marks, [...keep.values()].flatMap((k) => k.drawn));
  }

  // A piece or mark: its shape filled with its owner's colour, a text, a small text under it, a
  // badge at the top right, and the label as the tooltip.
  function token(item, x, y, r, style = {}, cls) {
    const s = style || {};
    const fill = s.fill ?? (item.hidden ? "#8d8680" : seatColour(item.owner));
    // a light fill (a pale resource token, a yellow seat) gets dark text: white on it is unreadable
    const g = svg("g", { class: `${cls} kind-${item.kind ?? "thing"}${item.hidden ? " hidden" : ""}${lightFill(fill) ? " light" : ""}${s.class ? ` ${s.class}` : ""}` });
    g.append(shape(s.shape ?? (cls === "piece" ? "circle" : "diamond"), x, y, r, fill));
    const text = s.text ?? (item.hidden ? "?" : item.count > 1 ? String(item.count) : initials(item.label ?? item.kind));
    // a long text in a round token (the arena's HP "230") gets smaller so it stays inside it
    const room = (s.shape ?? (cls === "piece" ? "circle" : "diamond")) === "chip" ? Infinity : (1.7 * r) / (0.72 * String(text).length || 1);
    const fs = Math.min(r * (s.sub ? 0.8 : 0.95), room);
    if (text !== "") g.append(svg("text", { x, y: y + (s.sub ? -r * 0.05 : fs / 3), class: `${cls}-text`, "font-size": fs, text }));
    if (s.sub) g.append(svg("text", { x, y: y + r * 0.7, class: `${cls}-sub`, "font-size": r * (s.subSize ?? 0.5), text: s.sub }));
    if (s.badge !== undefined && s.badge !== null && s.badge !== "") {
      g.append(svg("circle", { cx: x + r * 0.85, cy: y - r * 0.85, r: r * 0.42, class: "badge" }));
      g.append(svg("text", { x: x + r * 0.85, y: y - r * 0.7, class: "badge-text", "font-size": r * 0.5, text: String(s.badge) }));
    }
    g.append(svg("title", { text: s.title ?? item.label ?? item.kind ?? "" }));
    return g;
  }

  function shape(kind, x, y, r, fill) {
    const attrs = { fill, class: "token", "stroke-width": r * 0.12 };
    switch (kind) {
      case "square": return svg("rect", { ...attrs, x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: r * 0.2 });
      case "chip": return svg("rect", { ...attrs, x: x - r * 1.3, y: y - r * 0.9, width: 2.6 * r, height: 1.8 * r, rx: r * 0.4 });
      case "diamond": return svg("polygon", { ...attrs, points: pointsAttr([[x, y - r], [x + r, y], [x, y + r], [x - r, y]]) });
      case "house": return svg("polygon", { ...attrs, points: pointsAttr([[x - r, y - 0.1 * r], [x, y - r], [x + r, y - 0.1 * r], [x + r, y + r], [x - r, y + r]]) });
      case "tower": {
        const t = r * 0.4;
        return svg("polygon", { ...attrs, points: pointsAttr([[x - r, y + r], [x - r, y - r], [x - r + t, y - r], [x - r + t, y - r + t], [x - t / 2, y - r + t],
          [x - t / 2, y - r], [x + t / 2, y - r], [x + t / 2, y - r + t], [x + r - t, y - r + t], [x + r - t, y - r], [x + r, y - r], [x + r, y + r]]) });
      }
      default: return svg("circle", { ...attrs, cx: x, cy: y, r });
    }
  }

  function drawHand(hand, open, picked) {
    const box = clear(ctx.hand);
    if (hand === null || hand === undefined) {
      box.hidden = ctx.seat === null ? false : true;
      if (ctx.seat === null) box.append(el("div", { class: "muted", text: "Spectating: hands are hidden." }));
      return;
    }
    // a spectator has no hand; an empty hand without a title of the game's takes no room
    if (!hand.length && (ctx.seat === null || !look.handTitle)) { box.hidden = true; return; }
    box.hidden = false;
    box.append(el("div", { class: "hand-title" }, ...(look.handTitle ? [look.handTitle(view)].flat() : [el("strong", { text: "Your hand" })]),
      picks.length ? el("span", { class: "filter-note", text: ` — chosen: ${picks.map((p) => nameOf(p.value, p.type)).join(", ")}; click a highlighted place (Esc drops it)` }) : null));
    const row = el("div", { class: "tiles" });
    for (const item of hand) {
      const key = `${handType(item)}:${item.id}`;
      const button = el("button", {
        type: "button", class: `hand-item kind-${item.kind ?? "card"}${open.has(key) ? " actionable" : ""}${picked.has(key) ? " chosen" : ""}`,
        dataset: { hand: String(item.id) }, title: item.label ?? String(item.id),
        onclick: (ev) => onClick([{ value: String(item.id), type: handType(item) }], ev, item.label ?? String(item.id)),
      });
      const handCard = item.card ?? (cards() && Object.prototype.hasOwnProperty.call(cards(), String(item.id)) ? String(item.id) : null);
      if (handCard && cards()?.[handCard]) button.setAttribute("data-card", handCard);
      const inner = look.handItem ? look.handItem(item, view) : null;
      button.append(...(inner ? [inner].flat() : [el("span", { class: "hand-label", text: item.label ?? String(item.id) })]));
      if (item.count > 1) button.append(el("span", { class: "hand-count", text: `×${item.count}` }));
      row.append(button);
    }
    box.append(row);
  }

  function prompt() {
    if (picks.length) return `Chosen ${picks.map((p) => nameOf(p.value, p.type)).join(", ")}: click a highlighted place, or Esc.`;
    return "Click a highlighted place on the board or in your hand, or choose an action below.";
  }

  return { render, label, prompt, closeMenu, reset, seatColour, nameOf, cells, layout: lay, zoom };
}

// Zoom and pan of a board's SVG through its viewBox: the wheel zooms at the pointer, two
// fingers pinch, one finger or the mouse drags a zoomed board, and +, - and reset buttons
// (keyboard reachable) sit in the board's corner. A drag never ends in a click on a cell.
export function zoomable(root, base, holder) {
  const [bx, by, bw, bh] = base.map(Number);
  let scale = 1, cx = bx + bw / 2, cy = by + bh / 2;
  const apply = () => {
    scale = Math.min(8, Math.max(1, scale));
    const w = bw / scale, h = bh / scale;
    cx = Math.min(bx + bw - w / 2, Math.max(bx + w / 2, cx));
    cy = Math.min(by + bh - h / 2, Math.max(by + h / 2, cy));
    root.setAttribute("viewBox", [cx - w / 2, cy - h / 2, w, h].map((v) => +v.toFixed(4)).join(" "));
    root.classList.toggle("zoomed", scale > 1.001);
    root.dataset.zoom = scale.toFixed(2);
  };
  // the board point under a screen point (the SVG keeps its aspect ratio, centred)
  const toBoard = (clientX, clientY) => {
    const r = root.getBoundingClientRect();
    const w = bw / scale, h = bh / scale;
    const k = Math.min(r.width / w, r.height / h) || 1;
    const ox = r.left + (r.width - w * k) / 2, oy = r.top + (r.height - h * k) / 2;
    return [cx - w / 2 + (clientX - ox) / k, cy - h / 2 + (clientY - oy) / k, k];
  };
  const zoomAt = (factor, clientX, clientY) => {
    if (clientX === undefined) { scale *= factor; apply(); return; }
    const [px, py] = toBoard(clientX, clientY);
    const old = scale;
    scale = Math.min(8, Math.max(1, scale * factor));
    const f = old / scale;
    cx = px + (cx - px) * f;
    cy = py + (cy - py) * f;
    apply();
  };
  root.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    zoomAt(Math.exp(-ev.deltaY * 0.0015), ev.clientX, ev.clientY);
  }, { passive: false });
  const pointers = new Map();
  let dragged = false, pinch = null;
  root.addEventListener("pointerdown", (ev) => {
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    dragged = false;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a.x - b.x, a.y - b.y) || 1 };
    }
  });
  root.addEventListener("pointermove", (ev) => {
    const prev = pointers.get(ev.pointerId);
    if (!prev) return;
    const now = { x: ev.clientX, y: ev.clientY };
    pointers.set(ev.pointerId, now);
    if (pointers.size >= 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      zoomAt(d / pinch.d, (a.x + b.x) / 2, (a.y + b.y) / 2);
      pinch.d = d;
      dragged = true;
      return;
    }
    if (scale <= 1.001 || (ev.pointerType === "mouse" && !(ev.buttons & 1))) return;
    const dx = now.x - prev.x, dy = now.y - prev.y;
    if (!dragged && Math.hypot(dx, dy) < 3) { pointers.set(ev.pointerId, prev); return; }
    const k = toBoard(0, 0)[2];
    cx -= dx / k;
    cy -= dy / k;
    dragged = true;
    apply();
  });
  const up = (ev) => { pointers.delete(ev.pointerId); if (pointers.size < 2) pinch = null; };
  root.addEventListener("pointerup", up);
  root.addEventListener("pointercancel", up);
  root.addEventListener("pointerleave", up);
  // a drag or pinch is not a click on what lies under the finger
  root.addEventListener("click", (ev) => { if (dragged) { ev.stopPropagation(); ev.preventDefault(); dragged = false; } }, true);
  const button = (text, label, onclick) => el("button", { type: "button", class: "zoom-button", "aria-label": label, title: label, onclick, text });
  const controls = el("div", { class: "zoom-controls", role: "group", "aria-label": "Zoom" },
    button("+", "Zoom in", () => zoomAt(1.4)),
    button("−", "Zoom out", () => zoomAt(1 / 1.4)),
    button("⟲", "Reset zoom", () => { scale = 1; cx = bx + bw / 2; cy = by + bh / 2; apply(); }));
  holder.append(controls);
  apply();
  return { zoomAt, reset: () => { scale = 1; apply(); }, get scale() { return scale; } };
}

// Names measured where they were drawn (getBBox, in board units; a board not displayed yet
// measures nothing and placeLabels estimates), then moved or shrunk where they would overlap.
function arrangeLabels(spots, u) {
  for (const s of spots) {
    let bb = null;
    try { bb = s.node.getBBox(); } catch { bb = null; }
    if (!bb || !(bb.width > 0)) continue;
    s.extent = { x0: (bb.x - s.x) / s.fs, x1: (bb.x + bb.width - s.x) / s.fs, y0: (bb.y - s.y) / s.fs, y1: (bb.y + bb.height - s.y) / s.fs };
    // the estimate that sized it (0.6 em a character) is short for bold text: fit the real width
    if (s.room) s.fs = Math.max(u * 0.17, Math.min(s.fs, s.room / (s.extent.x1 - s.extent.x0)));
  }
  placeLabels(spots, u).forEach((p, i) => {
    const s = spots[i];
    if (p.x === s.x && p.y === s.y && String(p.fs) === s.node.getAttribute("font-size")) return;
    s.node.setAttribute("x", String(p.x));
    s.node.setAttribute("y", String(p.y));
    s.node.setAttribute("font-size", String(p.fs));
    s.node.setAttribute("stroke-width", String(p.fs * 0.22));
    for (const t of s.node.querySelectorAll("tspan")) t.setAttribute("x", String(p.x));
  });
}

// Label collision avoidance (issue 18: names in the Kingdoms centre were drawn over each other).
// Each name's box is its measured extent (per unit of font size), else estimated from its font
// size (bold text: about 0.68 em a character, 1.2 em a line). Names are placed biggest first; a name whose box meets one already placed moves to the
// nearest free spot among small steps around its cell's label point (preferring spots inside its
// own cell), and shrinks a little when none is free. Deterministic: the same board, the same places.
export function placeLabels(spots, u) {
  const placed = [];
  const box = (x, y, fs, lines, extent) => {
    if (extent) return { x0: x + extent.x0 * fs, x1: x + extent.x1 * fs, y0: y + extent.y0 * fs, y1: y + extent.y1 * fs };
    const w = (Math.max(...lines.map((l) => l.length)) * 0.68 + 0.3) * fs, h = fs * 1.2;
    return { x0: x - w / 2, x1: x + w / 2, y0: y - h * 0.8, y1: y + h * 0.2 + (lines.length - 1) * fs * 1.1 };
  };
  const hits = (b) => placed.some((o) => b.x0 < o.b.x1 && o.b.x0 < b.x1 && b.y0 < o.b.y1 && o.b.y0 < b.y1);
  const order = spots.map((s, i) => [s, i]).sort((p, q) => q[0].fs * q[0].text.length - p[0].fs * p[0].text.length || p[1] - q[1]);
  for (const s of spots) s.lines ??= [s.text];
  const steps = [];
  for (const dy of [0, 0.25, -0.25, 0.5, -0.5, 0.75, -0.75, 1, -1, 1.3, -1.3]) {
    for (const dx of [0, 0.4, -0.4, 0.8, -0.8]) steps.push([dx, dy]);
  }
  const out = new Array(spots.length);
  for (const [s] of order) {
    const first = box(s.x, s.y, s.fs, s.lines, s.extent);
    let chosen = hits(first) ? null : { x: s.x, y: s.y, fs: s.fs, b: first }; // where it was meant to go, if free
    for (let shrink = 0; shrink < 5 && !chosen; shrink++) {
      const fs = s.fs * 0.88 ** shrink;
      let fallback = null;
      for (const [dx, dy] of steps) {
        const x = s.x + dx * u, y = s.y + dy * u;
        const b = box(x, y, fs, s.lines, s.extent);
        if (hits(b)) continue;
        const within = !s.cell.points || (inside(s.cell.points, b.x0, y - fs * 0.3) && inside(s.cell.points, b.x1, y - fs * 0.3));
        if (within) { chosen = { x, y, fs, b }; break; }
        if (!fallback) fallback = { x, y, fs, b };
      }
      if (!chosen && fallback) chosen = fallback;
    }
    if (!chosen) {
      const fs = s.fs * 0.88 ** 5;
      chosen = { x: s.x, y: s.y, fs, b: box(s.x, s.y, fs, s.lines, s.extent) };
    }
    placed.push(chosen);
    out[spots.indexOf(s)] = { ...s, x: chosen.x, y: chosen.y, fs: chosen.fs };
  }
  return out;
}

// Whether a fill colour (#rgb or #rrggbb) is light enough that white text on it is hard to read
// (relative luminance over 0.35: dark text then has clearly the better contrast).
export function lightFill(fill) {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(String(fill ?? "").trim());
  if (!m) return false;
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join("") : m[1];
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.35;
}

// Whether (x, y) lies inside the polygon `points` (even-odd rule).
function inside(points, x, y) {
  if (!points || points.length < 3) return true;
  let hit = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i], [xj, yj] = points[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

function group(items) {
  const out = new Map();
  for (const it of items) {
    if (it.at === null || it.at === undefined) continue;
    const at = String(it.at);
    if (!out.has(at)) out.set(at, []);
    out.get(at).push(it);
  }
  return out;
}

function initials(text) {
  const words = String(text ?? "").replace(/_/g, " ").trim().split(/\s+/).filter(Boolean);
  if (!words.length) return "";
  return words.length > 1 ? (words[0][0] + words[1][0]).toUpperCase() : words[0].slice(0, 2).replace(/^./, (c) => c.toUpperCase());
}
