// Blood Stone (the Witch and the Soldiers) in the browser: the square grid with darkened squares
// and start zones, the pieces with their blood, the spell hand as cards. Everything comes from
// observation(seat) (this game's static_info is empty: the board is in every observation).
// Clicks map to legal actions only: click one of your units to select it (its moves and
// attacks light up), then a square or a target; click a card to cast or discard it.
import { clear, el, svg } from "/static/common.js";

const SIDE_COLOR = { witch: "#7d1f4f", soldiers: "#28568f" };
const CELL = 100;

export function createView(ctx) {
  let view = null;
  let legal = [];
  let selected = null; // unit id whose moves and attacks are shown

  const root = svg("svg", { class: "map grid-map", role: "img", "aria-label": "board" });
  const cellLayer = svg("g", { class: "cells" });
  const pieceLayer = svg("g", { class: "pieces" });
  root.append(cellLayer, pieceLayer);
  clear(ctx.board).append(el("div", { class: "map-wrap" }, root));
  let built = null; // "WxH" of the drawn grid
  const cells = new Map();

  const obs = () => view.observation;
  const units = () => obs().units || {};
  const seatName = (seat) => ctx.table.seats[seat]?.name ?? `seat ${seat}`;
  const sideSeat = (side) => (side === "soldiers" ? 0 : 1);
  const unitAt = (square) => Object.entries(units()).find(([, u]) => u.where === "board" && u.square === square)?.[0] ?? null;
  const unitName = (id) => units()[id]?.name ?? id;

  function squareName(col, row) { return `${String.fromCharCode(97 + col)}${row + 1}`; }

  function buildGrid() {
    const b = obs().board;
    const key = `${b.width}x${b.height}`;
    if (built === key) return;
    built = key;
    clear(cellLayer);
    cells.clear();
    root.setAttribute("viewBox", `-40 -10 ${b.width * CELL + 50} ${b.height * CELL + 50}`);
    const dark = new Set(b.darkened);
    const wz = new Set(b.witch_start);
    const sz = new Set(b.soldier_start);
    for (let row = 0; row < b.height; row++) {
      for (let col = 0; col < b.width; col++) {
        const name = squareName(col, row);
        const x = col * CELL;
        const y = (b.height - 1 - row) * CELL; // row 1 at the bottom (the Soldiers' side)
        const cls = dark.has(name) ? "dark" : wz.has(name) ? "wzone" : sz.has(name) ? "szone" : (row + col) % 2 ? "light" : "light2";
        const rect = svg("rect", { x, y, width: CELL, height: CELL, class: `sq ${cls}`, dataset: { square: name } });
        rect.append(svg("title", { text: `${name}${dark.has(name) ? " (darkened: impassable)" : ""}` }));
        rect.addEventListener("click", (ev) => onSquare(name, ev));
        cellLayer.append(rect);
        cells.set(name, rect);
      }
      cellLayer.append(svg("text", { x: -20, y: (b.height - 1 - row) * CELL + 58, class: "coord", text: row + 1 }));
    }
    for (let col = 0; col < b.width; col++) {
      cellLayer.append(svg("text", { x: col * CELL + 50, y: b.height * CELL + 32, class: "coord", text: String.fromCharCode(97 + col) }));
    }
  }

  // ------------------------------------------------------------------------------------------
  function label(text) {
    const [verb, ...a] = text.split(" ");
    switch (verb) {
      case "place": return `Place ${unitName(a[0])} on ${a[1]}`;
      case "move": return `Move ${unitName(a[0])} to ${a[1]}`;
      case "attack": return `${unitName(a[0])} attacks ${unitName(a[1])}`;
      case "cast": return `Cast ${cardName(a[0])}`;
      case "target": return `Target ${units()[a[0]] ? unitName(a[0]) : a[0]}`;
      case "pay": return `Pay ${a[0]} blood`;
      case "discard": return `Discard ${cardName(a[0])}`;
      case "done": return "Done acting";
      case "end": return "End turn";
      case "cancel": return "Undo choice";
      default: return text;
    }
  }

  function cardName(id) {
    return (obs().hand || []).find((c) => c.id === id)?.name ?? id.replace(/_/g, " ");
  }

  function prompt(v, mine) {
    if (!mine) return "";
    const o = v.observation;
    if (o.phase === "place") return "Place your pieces on your start squares (highlighted).";
    if (o.pending) return legal.some((t) => t.startsWith("pay ")) ? "Pay blood for the spell: choose X." : "Choose the spell's target (highlighted).";
    if (selected) return `${unitName(selected)} selected: click a highlighted square to move or a unit to attack.`;
    return "Click one of your units to move or attack, or a spell card to cast it; End turn when done.";
  }

  // ------------------------------------------------------------------------------------------
  function onSquare(square, ev) {
    const here = unitAt(square);
    let acts = [];
    if (selected) {
      acts = legal.filter((t) => {
        const [verb, a, b] = t.split(" ");
        return a === selected && ((verb === "move" || verb === "place") && b === square || verb === "attack" && b === here);
      });
    }
    if (!acts.length) acts = legal.filter((t) => t.startsWith("target ") && (t.split(" ")[1] === square || t.split(" ")[1] === here));
    if (!acts.length && here && legal.some((t) => /^(move|attack) /.test(t) && t.split(" ")[1] === here)) {
      selected = selected === here ? null : here;
      paint();
      return;
    }
    if (!acts.length) acts = legal.filter((t) => t.startsWith("place ") && t.split(" ")[2] === square);
    selected = null;
    choose(acts, ev, square);
  }

  function choose(acts, ev, title) {
    closeMenu();
    if (acts.length === 1) { ctx.act(acts[0]); return; }
    if (!acts.length) { paint(); return; }
    const menu = clear(ctx.menu);
    menu.append(el("div", { class: "menu-title", text: title }));
    for (const t of acts) menu.append(el("button", { type: "button", dataset: { action: t }, onclick: () => { closeMenu(); ctx.act(t); }, text: label(t) }));
    menu.append(el("button", { type: "button", class: "muted", onclick: closeMenu, text: "Close" }));
    menu.hidden = false;
    menu.style.left = `${Math.max(4, Math.min(ev.clientX + 8, window.innerWidth - 300))}px`;
    menu.style.top = `${Math.max(4, Math.min(ev.clientY + 8, window.innerHeight - menu.offsetHeight - 8))}px`;
    setTimeout(() => document.addEventListener("click", outside, { once: true }), 0);
  }

  function outside(ev) {
    if (!ctx.menu.contains(ev.target)) closeMenu();
    else document.addEventListener("click", outside, { once: true });
  }

  function closeMenu() { ctx.menu.hidden = true; }

  // ------------------------------------------------------------------------------------------
  function render(v, legalNow) {
    view = v;
    legal = legalNow || [];
    if (selected && !legal.some((t) => t.split(" ")[1] === selected)) selected = null;
    closeMenu();
    buildGrid();
    paint();
    drawHand();
    drawSides();
    drawPending();
    ctx.extra.hidden = true;
    ctx.areaInfo.hidden = true;
  }

  function paint() {
    const targets = new Set();
    const actors = new Set();
    for (const t of legal) {
      const [verb, a, b] = t.split(" ");
      if (selected) {
        if (a === selected && (verb === "move" || verb === "place")) targets.add(b);
        if (a === selected && verb === "attack") targets.add(units()[b]?.square);
      } else {
        if (verb === "move" || verb === "attack") actors.add(units()[a]?.square);
        if (verb === "place") targets.add(b);
      }
      if (verb === "target") targets.add(units()[a]?.square ?? a);
    }
    for (const [name, rect] of cells) {
      rect.classList.toggle("legal", targets.has(name));
      rect.classList.toggle("actor", actors.has(name));
      rect.classList.toggle("selected", selected !== null && units()[selected]?.square === name);
    }
    drawPieces();
  }

  function drawPieces() {
    clear(pieceLayer);
    const b = obs().board;
    for (const [id, u] of Object.entries(units())) {
      if (u.where !== "board" || !u.square) continue;
      const col = u.square.charCodeAt(0) - 97;
      const row = Number(u.square.slice(1)) - 1;
      const cx = col * CELL + CELL / 2;
      const cy = (b.height - 1 - row) * CELL + CELL / 2;
      const g = svg("g", { class: `piece ${u.zombified ? "zombified" : ""}`, dataset: { unit: id } });
      g.append(svg("circle", { cx, cy, r: u.kind === "witch" ? 42 : 36, fill: u.zombified ? "#4f7a3a" : SIDE_COLOR[u.side], class: "piece-body" }));
      if (u.bound) g.append(svg("circle", { cx, cy, r: 46, class: "bound-ring" }));
      g.append(svg("text", { x: cx, y: cy + 12, class: "piece-glyph", text: u.glyph }));
      g.append(svg("rect", { x: cx + 12, y: cy - 48, width: 40, height: 28, rx: 8, class: "blood-badge" }));
      g.append(svg("text", { x: cx + 32, y: cy - 27, class: "blood-text", text: u.blood }));
      g.append(svg("title", { text: `${u.name}: ${u.blood}/${u.max_blood} blood, moves ${u.movement}${u.attack ? `, attack ${u.attack}` : ""}${u.zombified ? ", zombified" : ""}${u.bound ? ", bound" : ""}` }));
      g.addEventListener("click", (ev) => onSquare(u.square, ev));
      pieceLayer.append(g);
    }
  }

  function drawHand() {
    const box = clear(ctx.hand);
    const o = obs();
    if (!o.hand) { box.append(el("div", { class: "muted", text: "Spectating: hands are hidden." })); return; }
    box.append(el("div", { class: "hand-title" }, el("strong", { text: "Your spells " }),
      el("span", { class: "muted", text: `${o.hand.length} card(s) · blood supply ${o.supply}` })));
    const row = el("div", { class: "tiles" });
    for (const card of o.hand) {
      const acts = legal.filter((t) => t === `cast ${card.id}` || t === `discard ${card.id}`);
      const b = el("button", { type: "button", class: `spell-card ${acts.length ? "actionable" : ""}`, dataset: { card: card.id }, title: card.text,
        onclick: (ev) => choose(acts, ev, card.name) });
      b.append(el("strong", { text: card.name }), el("span", { class: "small", text: `Chance ${card.chance.text}` }),
        el("span", { class: "small", text: `Range ${card.range}` }), el("span", { class: "small muted", text: card.effect.text }));
      row.append(b);
    }
    box.append(row);
  }

  function drawSides() {
    const box = clear(ctx.players);
    const o = obs();
    for (const side of ["soldiers", "witch"]) {
      const seat = sideSeat(side);
      const toMove = view.current_player === seat;
      const card = el("div", { class: `player ${toMove ? "to-move" : ""}` });
      card.append(el("div", { class: "player-head" },
        el("span", { class: "swatch", style: `background:${SIDE_COLOR[side]}` }),
        el("strong", { text: seatName(seat) }),
        el("span", { class: "muted", text: ` ${ctx.table.seats[seat]?.kind === "agent" ? "AI · " : ""}${side === "witch" ? "the Witch" : "the Soldiers"}` }),
        toMove ? el("span", { class: "turn-flag", text: "to play" }) : null,
        o.seat === seat ? el("span", { class: "you-flag", text: "you" }) : null));
      const list = el("div", { class: "player-stats" });
      for (const u of Object.values(units()).filter((x) => x.side === side)) {
        list.append(el("span", { title: u.attack || "" }, `${u.glyph} ${u.name}: `,
          el("strong", { text: u.where === "board" ? `${u.blood}/${u.max_blood}` : u.where })));
      }
      list.append(el("span", { text: `hand ${o.hand_sizes?.[side] ?? 0}` }));
      card.append(list);
      box.append(card);
    }
    const t = o.turn || {};
    box.append(el("div", { class: "muted small", text: `Turn ${o.turn_number} of ${o.max_turns} · acts ${t.acts_used ?? 0}/${(t.acts_limit ?? 0) + (t.extra_acts ?? 0)} · spells ${t.spells_used ?? 0}/${t.spell_limit ?? "?"} · phantoms ${o.phantoms}${o.winner ? ` · winner: the ${o.winner}` : ""}` }));
  }

  function drawPending() {
    const box = clear(ctx.pending);
    const p = obs().pending;
    if (!p) return;
    box.append(el("div", { class: "pending-box" }, el("strong", { text: "Casting: " }), el("span", { text: typeof p === "object" ? Object.entries(p).map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(" · ") : String(p) })));
  }

  return { render, label, prompt, closeMenu };
}
