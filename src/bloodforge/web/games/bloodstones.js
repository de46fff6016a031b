// Bloodstones in the browser: the map as SVG cells (geometry from the game's static_info), unit
// stacks, villages and citadels from observation(seat), the hand as tiles, tracks and battles.
// Every click maps to the engine's legal actions only: clicking an area offers the legal actions
// that name it, clicking a hand tile the ones that name that tile; "Undo choice" sends `cancel`.
import { clear, el, svg, titleCase } from "/static/common.js";

const TERRAIN_COLOR = {
  plains: "#dfe8b0", forest: "#8fbf73", hills: "#d2b27a", mountains: "#a39a92", desert: "#f1dfa8", sea: "#9cc9e8",
};
const FACTION_COLOR = {
  dragon_riders: "#c0392b", horse_lords: "#d49a00", hill_folk: "#8e5a2b",
  necromancers: "#7d3c98", corsairs: "#117a8b", chaos_horde: "#2e4053",
};
const SEAT_COLOR = ["#c0392b", "#2471a3", "#d49a00", "#7d3c98", "#117a8b", "#2e4053"];
const AREA_ARGS = new Set(["area", "from", "to"]);
const TILE_ARGS = new Set(["tile"]);
const UNIT_ARGS = new Set(["unit"]);

export function createView(ctx) {
  const stat = ctx.staticInfo;
  const areas = new Map(stat.map.areas.map((a) => [a.id, a]));
  const drawing = new Map(stat.map.drawing.areas.map((a) => [a.id, a]));
  const verbArgs = new Map(ctx.grammar.map((g) => [g.kind, g.args]));
  let view = null;
  let legal = [];
  let unitFilter = null; // a hand tile chosen to build: areas then offer only its builds
  let hovered = null;

  // ----------------------------------------------------------------------------------------
  // map skeleton (drawn once)
  const [vx, vy, vw, vh] = stat.map.drawing.viewbox;
  const root = svg("svg", { viewBox: `${vx} ${vy} ${vw} ${vh}`, class: "map", role: "img", "aria-label": stat.map.name || "map" });
  const cellLayer = svg("g", { class: "cells" });
  const borderLayer = svg("g", { class: "borders" });
  const labelLayer = svg("g", { class: "labels" });
  const pieceLayer = svg("g", { class: "pieces" });
  root.append(cellLayer, borderLayer, labelLayer, pieceLayer);
  const cells = new Map();
  for (const a of stat.map.areas) {
    const d = drawing.get(a.id);
    const poly = svg("polygon", {
      points: d.polygon.map((p) => p.join(",")).join(" "),
      fill: TERRAIN_COLOR[a.terrain] || "#ddd", class: `cell t-${a.terrain}`,
      dataset: { area: a.id },
    });
    poly.append(svg("title", { text: `Area ${a.id} · ${a.terrain}` }));
    poly.addEventListener("click", (ev) => onAreaClick(a.id, ev));
    poly.addEventListener("mouseenter", () => { hovered = a.id; showAreaInfo(a.id); });
    cellLayer.append(poly);
    cells.set(a.id, poly);
    labelLayer.append(svg("text", { x: d.label_x, y: d.label_y - 70, class: "area-label", text: a.id }));
    if (a.terrain === "mountains") labelLayer.append(svg("text", { x: d.label_x, y: d.label_y + 95, class: "terrain-glyph", text: "▲▲" }));
    if (a.terrain === "hills") labelLayer.append(svg("text", { x: d.label_x, y: d.label_y + 95, class: "terrain-glyph", text: "⌒⌒" }));
    if (a.terrain === "desert") labelLayer.append(svg("text", { x: d.label_x, y: d.label_y + 95, class: "terrain-glyph", text: "∴" }));
  }
  for (const b of stat.map.drawing.borders) {
    const [[x1, y1], [x2, y2]] = b.points;
    borderLayer.append(svg("line", { x1, y1, x2, y2, class: `border ${b.kind}` }));
  }
  const mapWrap = el("div", { class: "map-wrap" }, root);
  clear(ctx.board).append(mapWrap, legend());

  function legend() {
    const box = el("div", { class: "legend" });
    for (const [t, c] of Object.entries(TERRAIN_COLOR)) {
      box.append(el("span", { class: "legend-item" }, el("span", { class: "swatch", style: `background:${c}` }), t));
    }
    box.append(el("span", { class: "legend-item" }, el("span", { class: "swatch barrier" }), "no crossing"));
    box.append(el("span", { class: "legend-item" }, el("span", { class: "swatch link" }), "linked"));
    return box;
  }

  // ----------------------------------------------------------------------------------------
  // helpers over the observation
  const players = () => view?.observation.players || [];
  const factionOf = (seat) => players()[seat]?.faction;
  const colorOf = (seat) => FACTION_COLOR[factionOf(seat)] || SEAT_COLOR[seat % SEAT_COLOR.length];
  const seatName = (seat) => ctx.table.seats[seat]?.name ?? `P${seat}`;
  const unitInfo = (seat, unit) => stat.factions[factionOf(seat)]?.units?.[unit];
  const terrainOf = (id) => areas.get(Number(id))?.terrain ?? "?";
  const niceUnit = (u) => String(u).replace(/_/g, " ");

  function argsOf(text) {
    const [verb, ...args] = text.split(" ");
    const names = verbArgs.get(verb) || [];
    return { verb, args, names };
  }

  function areasIn(text) {
    const { args, names } = argsOf(text);
    return args.filter((_, i) => AREA_ARGS.has(names[i])).map(Number);
  }

  function tileIn(text) {
    const { args, names } = argsOf(text);
    const i = names.findIndex((n) => TILE_ARGS.has(n));
    return i >= 0 ? args[i] : null;
  }

  function unitIn(text) {
    const { args, names } = argsOf(text);
    const i = names.findIndex((n) => UNIT_ARGS.has(n));
    return i >= 0 ? args[i] : null;
  }

  // ----------------------------------------------------------------------------------------
  // readable labels for action texts
  function label(text) {
    const { verb, args } = argsOf(text);
    const a = (i) => `${args[i]} (${terrainOf(args[i])})`;
    switch (verb) {
      case "faction": return `Play the ${stat.factions[args[0]]?.name || titleCase(args[0])}`;
      case "citadel": return `Place your citadel in ${a(0)}`;
      case "start": return `Start in ${a(0)}`;
      case "build": return `Build ${niceUnit(args[0])} in ${a(1)}`;
      case "place": return `Return with ${niceUnit(args[0])} in ${a(1)}`;
      case "pay": {
        const info = unitInfo(view?.seat ?? ctx.seat, args[0]);
        return `Pay with ${niceUnit(args[0])}${info ? ` (${info.pips} pips)` : ""}`;
      }
      case "move": return `Select ${niceUnit(args[1])} in ${args[0]} to move`;
      case "to": return `Move the group to ${a(0)}`;
      case "battle": return `Attack ${seatName(Number(args[1]))} in ${a(0)}`;
      case "capture": return `Capture a village in ${a(0)}`;
      case "village": return `Build a village in ${a(0)}`;
      case "undead": return `Undead: ${args[0]} → ${args[1]}`;
      case "withdraw": return `Withdraw to ${a(0)}`;
      case "stay": return "Stay and fight";
      case "substitute": return `Substitute ${niceUnit(args[0])} for your lowest battle tile`;
      case "keep": return "Keep the battle tiles";
      case "casualty": return `Lose ${niceUnit(args[0])}`;
      case "retreat": return `Retreat to ${a(0)}`;
      case "raise": return `Raise ${args[0]} Undead`;
      case "done": return "Done";
      case "cancel": return "Undo choice";
      default: return text;
    }
  }

  function prompt(v, mine) {
    const o = v.observation;
    if (!mine) return "";
    const has = (verb) => legal.some((t) => t.startsWith(`${verb} `) || t === verb);
    if (o.battle) {
      if (has("withdraw") || has("stay")) return "You are attacked: withdraw to a highlighted area or stay and fight.";
      if (has("substitute") || has("keep")) return "Battle: keep your tiles or click a hand tile to substitute it for your lowest.";
      if (has("casualty")) return "You lost the battle: choose the unit to eliminate.";
      if (has("retreat")) return "Retreat to a highlighted area.";
      if (has("raise")) return "Raise Undead from the units you beat.";
    }
    if (o.pending) {
      const p = o.pending;
      if (p.kind === "move") return has("to") ? "Add units (click their area) or click a highlighted destination; then pay with hand tiles." : "Pay for the move with hand tiles.";
      if (p.kind === "build") return `Pay ${p.cost ?? ""} build point(s) with hand tiles (click a tile).`;
      return "Pick more areas or pay with a hand tile.";
    }
    switch (o.phase) {
      case "choose_faction": return "Choose your faction.";
      case "place_citadel": return "Click a highlighted area to place your citadel.";
      case "place_horde": return "Click a highlighted area to start the Chaos Horde.";
      case "setup_build": return `Spend your build points (${o.build_points} left): click a hand tile, then a highlighted area — or Done.`;
      case "capture_villages": return "Capture villages (highlighted areas) or Done.";
      case "undead_moves": return "Move Undead or Done.";
      case "main_actions": return "Build (click a hand tile, then an area), move (click your units' area), attack or capture — Done ends your turn.";
      case "construct_villages": return "Construct villages in highlighted areas, or Done.";
      default: return "Choose an action.";
    }
  }

  // ----------------------------------------------------------------------------------------
  // clicks
  function onAreaClick(id, ev) {
    showAreaInfo(id);
    let acts = legal.filter((t) => areasIn(t).includes(id));
    if (unitFilter) {
      const only = acts.filter((t) => unitIn(t) === unitFilter && (t.startsWith("build ") || t.startsWith("place ")));
      if (only.length) acts = only;
      unitFilter = null;
      markHand();
    }
    choose(acts, ev, `Area ${id} · ${terrainOf(id)}`);
  }

  function onTileClick(tile, ev) {
    const direct = legal.filter((t) => tileIn(t) === tile);
    if (direct.length) { choose(direct, ev, niceUnit(tile)); return; }
    const builds = legal.filter((t) => unitIn(t) === tile && (t.startsWith("build ") || t.startsWith("place ")));
    if (builds.length) {
      unitFilter = unitFilter === tile ? null : tile;
      markHand();
      highlight();
      return;
    }
  }

  function choose(acts, ev, title) {
    closeMenu();
    if (acts.length === 1) { ctx.act(acts[0]); return; }
    if (!acts.length) return;
    const menu = clear(ctx.menu);
    menu.append(el("div", { class: "menu-title", text: title }));
    for (const t of acts.sort(byLabel)) {
      menu.append(el("button", { type: "button", dataset: { action: t }, onclick: () => { closeMenu(); ctx.act(t); }, text: label(t) }));
    }
    menu.append(el("button", { type: "button", class: "muted", onclick: closeMenu, text: "Close" }));
    menu.hidden = false;
    const x = Math.min(ev.clientX + 8, window.innerWidth - 300);
    const y = Math.min(ev.clientY + 8, window.innerHeight - menu.offsetHeight - 8);
    menu.style.left = `${Math.max(4, x)}px`;
    menu.style.top = `${Math.max(4, y)}px`;
    setTimeout(() => document.addEventListener("click", outside, { once: true }), 0);
  }

  function byLabel(a, b) { return label(a).localeCompare(label(b), undefined, { numeric: true }); }

  function outside(ev) {
    if (!ctx.menu.contains(ev.target)) closeMenu();
    else document.addEventListener("click", outside, { once: true });
  }

  function closeMenu() { ctx.menu.hidden = true; }

  // ----------------------------------------------------------------------------------------
  // drawing the observation
  function render(v, legalNow) {
    view = v;
    legal = legalNow || [];
    if (unitFilter && !legal.some((t) => unitIn(t) === unitFilter)) unitFilter = null;
    closeMenu();
    drawPieces();
    highlight();
    drawHand();
    drawPlayers();
    drawPending();
    drawBattle();
    if (hovered !== null) showAreaInfo(hovered);
  }

  function highlight() {
    const o = view.observation;
    const targets = new Set();
    for (const t of legal) {
      if (unitFilter && !(unitIn(t) === unitFilter && (t.startsWith("build ") || t.startsWith("place ")))) continue;
      for (const a of areasIn(t)) targets.add(a);
    }
    const group = o.pending?.group_area ?? o.pending?.area;
    const picked = new Set(o.pending?.targets || []);
    for (const [id, poly] of cells) {
      poly.classList.toggle("legal", targets.has(id));
      poly.classList.toggle("selected", group === id || picked.has(id));
      poly.classList.toggle("battle", o.battle?.area === id);
    }
  }

  function drawPieces() {
    clear(pieceLayer);
    const o = view.observation;
    const citadels = new Map();
    for (const p of o.players) if (p.citadel_area !== null && p.citadel_area !== undefined) citadels.set(p.citadel_area, p.seat);
    for (const area of o.areas) {
      const d = drawing.get(area.id);
      if (!d) continue;
      // Citadels are drawn as towers below; a stack chip shows the other units only.
      const seats = Object.keys(area.units).filter(
        (s) => Object.entries(area.units[s]).some(([u, n]) => u !== "citadel" && n > 0));
      const w = 170, h = 110, gap = 16;
      const total = seats.length * w + (seats.length - 1) * gap;
      seats.forEach((s, i) => {
        const units = area.units[s];
        const count = Object.entries(units).filter(([u]) => u !== "citadel").reduce((n, [, c]) => n + c, 0);
        const x = d.label_x - total / 2 + i * (w + gap);
        const y = d.label_y - 10;
        const g = svg("g", { class: "stack", dataset: { area: area.id, seat: s } });
        g.append(svg("rect", { x, y, width: w, height: h, rx: 24, fill: colorOf(Number(s)), class: "chip" }));
        const letters = Object.keys(units).filter((u) => u !== "citadel").map(glyph).join("");
        g.append(svg("text", { x: x + w / 2, y: y + 62, class: "chip-count", text: count || "" }));
        g.append(svg("text", { x: x + w / 2, y: y + 98, class: "chip-kinds", text: letters.slice(0, 5) }));
        g.append(svg("title", { text: `${seatName(Number(s))}: ${unitList(units)}` }));
        g.addEventListener("click", (ev) => onAreaClick(area.id, ev));
        pieceLayer.append(g);
      });
      if (area.village) {
        const vx2 = d.label_x - 150, vy2 = d.label_y - 150;
        const g = svg("g", { class: "village" });
        g.append(svg("path", { d: `M${vx2},${vy2 + 40} l40,-40 l40,40 v45 h-80 z`, fill: colorOf(area.village.seat), stroke: "#222", "stroke-width": 6 }));
        if (area.village.count > 1) g.append(svg("text", { x: vx2 + 40, y: vy2 + 78, class: "village-count", text: area.village.count }));
        g.append(svg("title", { text: `${area.village.count} village(s) of ${seatName(area.village.seat)}` }));
        pieceLayer.append(g);
      }
    }
    for (const [areaId, seat] of citadels) {
      const d = drawing.get(areaId);
      if (!d) continue;
      const x = d.label_x + 75, y = d.label_y - 165;
      const g = svg("g", { class: "citadel" });
      g.append(svg("path", {
        d: `M${x},${y + 100} v-70 h20 v20 h20 v-20 h20 v20 h20 v-20 h20 v70 z`,
        fill: colorOf(seat), stroke: "#111", "stroke-width": 7,
      }));
      g.append(svg("title", { text: `Citadel of ${seatName(seat)}` }));
      pieceLayer.append(g);
    }
  }

  function glyph(unit) {
    const base = unitInfo(0, unit)?.base;
    const map = { castle: "♜", ship: "⛵", dragon: "🐉", leader: "★", cavalry: "♞", giant: "G", siege_engine: "⚙", necromancer: "☠", undead: "☠" };
    return map[unit] || map[base] || "";
  }

  function unitList(units) {
    return Object.entries(units).filter(([, n]) => n > 0).map(([u, n]) => `${n} ${niceUnit(u)}`).join(", ") || "nothing";
  }

  function drawHand() {
    const box = clear(ctx.hand);
    const o = view.observation;
    if (o.hand === null || o.hand === undefined) {
      box.append(el("div", { class: "muted", text: ctx.seat === null ? "Spectating: hands are hidden." : "" }));
      return;
    }
    const me = o.players[o.seat];
    box.append(el("div", { class: "hand-title" }, el("strong", { text: "Your hand " }),
      el("span", { class: "muted", text: `${me?.hand_count ?? 0} of ${me?.hand_limit ?? "?"} tiles · bag ${me?.bag_count ?? "?"}` }),
      unitFilter ? el("span", { class: "filter-note", text: ` — building ${niceUnit(unitFilter)}: click a highlighted area` }) : null));
    const row = el("div", { class: "tiles" });
    for (const [tile, n] of Object.entries(o.hand)) {
      const info = unitInfo(o.seat, tile) || {};
      const actionable = legal.some((t) => tileIn(t) === tile || (unitIn(t) === tile && (t.startsWith("build ") || t.startsWith("place "))));
      for (let k = 0; k < n; k++) {
        const card = el("button", {
          type: "button", class: `tile ${actionable ? "actionable" : ""} ${unitFilter === tile ? "chosen" : ""}`,
          dataset: { tile }, title: info.build_cost !== null && info.build_cost !== undefined ? `build cost ${info.build_cost}` : "not buildable",
          onclick: (ev) => onTileClick(tile, ev),
        });
        card.append(el("span", { class: "tile-name", text: niceUnit(tile) }), pips(info.pips ?? 0),
          el("span", { class: "tile-cost", text: info.build_cost !== null && info.build_cost !== undefined ? `cost ${info.build_cost}` : "—" }));
        row.append(card);
      }
    }
    box.append(row);
  }

  function markHand() { if (view) drawHand(); highlight(); }

  function pips(n) {
    const box = el("span", { class: "pips", "aria-label": `${n} pips` });
    for (let i = 0; i < n; i++) box.append(el("span", { class: "pip" }));
    return box;
  }

  function drawPlayers() {
    const box = clear(ctx.players);
    const o = view.observation;
    const target = o.regroup_target;
    for (const p of o.players) {
      const toMove = view.current_player === p.seat;
      const seatInfo = ctx.table.seats[p.seat];
      const card = el("div", { class: `player ${toMove ? "to-move" : ""} ${p.eliminated ? "eliminated" : ""}`, dataset: { seat: p.seat } });
      card.append(el("div", { class: "player-head" },
        el("span", { class: "swatch", style: `background:${colorOf(p.seat)}` }),
        el("strong", { text: seatInfo?.name ?? `P${p.seat}` }),
        el("span", { class: "muted", text: ` ${seatInfo?.kind === "agent" ? "AI · " : ""}${p.faction_name ?? "faction not chosen"}` }),
        toMove ? el("span", { class: "turn-flag", text: "to play" }) : null,
        o.seat === p.seat ? el("span", { class: "you-flag", text: "you" }) : null));
      const regroups = el("span", { class: "regroups", title: "regroups" });
      for (let i = 0; i < target; i++) regroups.append(el("span", { class: `dot ${i < p.regroups ? "on" : ""}` }));
      card.append(el("div", { class: "player-stats" },
        el("span", { class: "vp", title: "victory points", text: `${p.vp} VP` }),
        el("span", {}, "regroups ", regroups),
        el("span", { title: "tiles in hand (hand size)", text: `hand ${p.hand_count} (size ${p.hand_limit ?? "?"})` }),
        el("span", { title: "tiles in bag", text: `bag ${p.bag_count}` }),
        el("span", { title: "villages on the map / in supply", text: `villages ${p.villages_on_map}/${p.village_supply}` }),
        p.captured_villages || p.captured_citadels ? el("span", { text: `captured ${p.captured_villages}v ${p.captured_citadels}c` }) : null,
        p.undead_pool ? el("span", { text: `undead pool ${p.undead_pool}` }) : null));
      const vpBar = el("div", { class: "vp-track" }, el("div", { class: "vp-fill", style: `width:${Math.min(100, p.vp * 2)}%;background:${colorOf(p.seat)}` }));
      card.append(vpBar);
      box.append(card);
    }
    box.append(el("div", { class: "muted small", text: `Turns taken ${o.turns_taken} · phase ${o.phase.replace(/_/g, " ")}${o.end_triggered_by !== null && o.end_triggered_by !== undefined ? ` · end triggered by ${seatName(o.end_triggered_by)}` : ""}` }));
  }

  function drawPending() {
    const box = clear(ctx.pending);
    const p = view.observation.pending;
    if (!p) return;
    const parts = [];
    if (p.kind === "move") {
      if (p.group && Object.keys(p.group).length) parts.push(`group in ${p.group_area}: ${unitList(p.group)}`);
      if (p.legs && p.legs.length) parts.push(`moves: ${p.legs.map((l) => JSON.stringify(l)).join(", ")}`);
    } else if (p.kind === "build") {
      parts.push(`${niceUnit(p.unit)} in ${p.area}`);
    }
    if (p.targets && p.targets.length) parts.push(`areas ${p.targets.join(", ")}`);
    if (p.cost !== undefined && p.cost !== null) parts.push(`cost ${p.cost}`);
    if (p.paid && p.paid.length) parts.push(`paid ${p.paid.map(niceUnit).join(", ")}`);
    box.append(el("div", { class: "pending-box" }, el("strong", { text: `Choosing: ${p.kind}` }), el("span", { text: ` — ${parts.join(" · ")}` })));
  }

  function drawBattle() {
    const box = clear(ctx.extra);
    const b = view.observation.battle;
    box.hidden = !b;
    if (!b) return;
    box.append(el("h3", { text: `Battle in area ${b.area} (${terrainOf(b.area)})` }));
    box.append(el("div", { class: "muted small", text: `step: ${b.step}${b.fights ? ` · re-fight ${b.fights}` : ""}` }));
    b.sides.forEach((side, i) => {
      const row = el("div", { class: "battle-side" },
        el("span", { class: "swatch", style: `background:${colorOf(side.seat)}` }),
        el("strong", { text: `${i === 0 ? "Attacker" : "Defender"} ${seatName(side.seat)}` }),
        el("span", { class: "muted", text: ` ${side.units_at_start} unit(s)` }));
      const tiles = el("div", { class: "battle-tiles" });
      if (side.tiles) for (const t of side.tiles) tiles.append(el("span", { class: "btile", text: t }));
      else for (let k = 0; k < side.tile_count; k++) tiles.append(el("span", { class: "btile hidden", text: "?" }));
      if (side.substitute) tiles.append(el("span", { class: "sub", text: `+ ${niceUnit(side.substitute)}` }));
      else if (side.substituted) tiles.append(el("span", { class: "sub", text: "+ a hidden substitute" }));
      if (side.total !== null && side.total !== undefined) tiles.append(el("strong", { class: "total", text: `= ${side.total}` }));
      box.append(row, tiles);
    });
    if (b.winner !== null && b.winner !== undefined) box.append(el("div", { class: "winner", text: `${seatName(b.winner)} wins the fight` }));
  }

  function showAreaInfo(id) {
    if (!view) return;
    const box = clear(ctx.areaInfo);
    box.hidden = false;
    const o = view.observation;
    const a = areas.get(id);
    box.append(el("h3", { text: `Area ${id} · ${a?.terrain ?? ""}` }));
    const entry = o.areas.find((x) => x.id === id);
    if (entry) {
      for (const [s, units] of Object.entries(entry.units)) {
        box.append(el("div", {}, el("span", { class: "swatch", style: `background:${colorOf(Number(s))}` }), el("strong", { text: ` ${seatName(Number(s))}: ` }), unitList(units)));
      }
      if (entry.village) box.append(el("div", { text: `${entry.village.count} village(s) of ${seatName(entry.village.seat)}` }));
    } else {
      box.append(el("div", { class: "muted", text: "empty" }));
    }
    const owner = o.players.find((p) => p.citadel_area === id);
    if (owner) box.append(el("div", { text: `Citadel of ${seatName(owner.seat)}` }));
    box.append(el("div", { class: "muted small", text: `borders ${a?.adjacent.join(", ")}` }));
  }

  return { render, label, prompt, closeMenu };
}
