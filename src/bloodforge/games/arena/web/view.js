// BLOODSTONE arena's look in the browser. The shared hex renderer (/static/boards/) draws the arena
// from static_info()["board"] and the figures and tiles from observation()["board"], and turns
// clicks into legal actions; the page shows the status board (observation["status"]) under the
// players. This module sets colours and glyphs, words every button and the prompt from what the
// game says in Python (observation["labels"], the waiting decision's "prompt"), and fills the
// extra panel with this round's initiative order and the acting Champion's dice.
import { clear, el } from "/static/common.js";

const KINDS = { floor: { fill: "#dccfb4", label: "Arena floor" }, central: { fill: "#c9ab7c", label: "Central zone (where Champions enter)" } };
const NPC_FILL = { boss: "#5b1a1a", rival: "#3f4d6b", minion: "#6f6f6f" };
const TILE_FILL = { // the legend's swatches; the hexes themselves are tinted by view.css
  hellfire_spray: "#f0936b", spectral_thorns: "#8fbf6a", spike_traps: "#a5a5a5", ice_slicks: "#b7e1fa",
  springboards: "#f5d27a", the_arm: "#d1707d", bloodshard_columns: "#8e1b1b", spawn_pits: "#8a7bb0", trap: "#c98b5e",
};
const KIND_WORD = { boss: "Boss", rival: "Rival", minion: "minion" };
const DIE_CLASS = { atk: "die-attack", tmp: "die-temp", be: "die-energy" };

export function createView(ctx) {
  let view = null;
  const obs = () => view?.observation || {};
  const units = () => Object.fromEntries((obs().units || []).map((u) => [u.id, u]));
  // Short names for the tokens: a name's first three letters ("Vhr"), a two-word name's initials
  // ("GD"), a trailing number kept ("Ris2"); a clash takes more letters, then a count (two figures of one name: "Ris", "Ris2").
  function shortNames(v = view) {
    const out = {}, seen = new Map();
    for (const u of v?.observation?.units || []) {
      const name = String(u.name || "?");
      const num = (name.match(/\s*(\d+)$/) || ["", ""])[1];
      const words = name.replace(/\s*\d+$/, "").split(/\s+/).filter(Boolean);
      const letters = (w) => w.replace(/[^\p{L}]/gu, "");
      let base = words.length > 1 ? words.map((w) => letters(w)[0] || "").join("").slice(0, 3) : letters(words[0] || "?").slice(0, 3);
      let s = base + num;
      if (seen.has(s) && seen.get(s) !== name) { base = letters(words.join("")).slice(0, 4); s = base + num; }
      let k = 2;
      while (seen.has(s)) s = `${base}${num}${k++}`;
      seen.set(s, name);
      out[u.id] = s;
    }
    return out;
  }
  const envName = (id) => (ctx.staticInfo?.environmentals || []).find((e) => e.id === id)?.name || "Environmental";

  const look = {
    kinds: KINDS,
    piece: (p) => {
      const u = units()[p.id] || {};
      const hasHp = u.hp !== null && u.hp !== undefined;
      const hp = hasHp ? Math.max(u.hp, 0) : null;
      const low = hasHp && u.max_hp && hp / u.max_hp <= 0.3;
      const acting = obs().active === p.id;
      // The token fills most of its hex and carries the figure's short name over its HP, so a
      // figure is known by more than its colour (UI audit: a 24 px disc with only "137" on it);
      // the legend under the map gives each short name in full; the maximum is in the tooltip.
      return {
        fill: u.seat === null || u.seat === undefined ? NPC_FILL[u.kind] : undefined,
        text: shortNames()[p.id] || "?",
        sub: hasHp ? String(hp) : undefined,
        subSize: 0.6,
        class: `arena-${u.kind || "figure"}${low ? " arena-low" : ""}${acting ? " arena-acting" : ""}`,
        title: `${u.name || p.id}${hasHp ? `: ${hp} of ${u.max_hp} HP` : " (cannot be damaged)"}` +
          (u.kind === "minion" ? "" : `, ${u.energy ?? 0} Blood Energy`),
      };
    },
    pieceSize: 0.8, // one figure a hex: its token fills most of it (board.js)
    legend: (v) => { // each figure on the board: its token's look and its full name; then each
      // Environmental's tiles on the board by their tint (a tinted hex is otherwise unexplained
      // beside the map: the panel's list sat below the initiative order's fold)
      const us = Object.fromEntries((v.observation?.units || []).map((u) => [u.id, u]));
      const names = shortNames(v);
      const figures = (v.observation?.board?.pieces || []).filter((p) => us[p.id]).map((p) => {
        const u = us[p.id];
        const npc = u.seat === null || u.seat === undefined;
        const what = npc ? KIND_WORD[u.kind] || "" : "Champion";
        return { symbol: names[p.id] || "?", text: `${u.name}${what ? ` (${what})` : ""}`, ...(npc ? { fill: NPC_FILL[u.kind] } : { owner: u.seat }) };
      });
      const tiles = [...new Set((v.observation?.tiles || []).map((t) => t.env))];
      return [...figures, ...tiles.map((id) => ({ swatch: TILE_FILL[id] || "#999999", text: `${envName(id)} (Environmental tiles)` }))];
    },
    mark: () => null, // tiles tint their hexes (view.css: .cell.mark-<tile>); the panel has a legend
    handTitle: () => [el("strong", { text: "Your Initiative cards" }), el("span", { class: "muted small", text: " (Speed in brackets: lower acts first)" })],
  };

  function render(v) {
    view = v;
    drawPanel();
    ctx.extra.hidden = !ctx.extra.childElementCount; // shown whenever it has something (issue 18 defect 1)
  }

  function orderName(x) {
    if (x.startsWith("env:")) return envName(x.slice(4));
    return units()[x]?.name || "?";
  }

  function dieChip(d) {
    const face = d.face === null || d.face === undefined || d.fresh ? "–" : String(d.face);
    const cls = `arena-die ${DIE_CLASS[d.kind] || "die-special"}${d.used ? " used" : ""}`;
    const name = { atk: "Attack die", tmp: "Temporary Attack die", be: "Blood Energy die" }[d.kind] || "Special die";
    return el("span", { class: cls, title: `${name}${d.face ? ` showing ${d.face}` : " (not rolled yet)"}${d.used ? ", used" : ""}`, text: face });
  }

  function drawPanel() {
    const box = clear(ctx.extra);
    const o = obs();
    if (!o.units) return;
    const order = o.order || [];
    if (order.length) {
      const list = el("ol", { class: "arena-order", "aria-label": "Initiative order this round" });
      for (const x of order) {
        const u = units()[x];
        const done = (o.done || []).includes(x);
        const speed = u?.speed ?? (o.env_speed?.[x]?.[0] || null);
        const card = x.startsWith("env:") ? x : u?.id; // the description's key (contract item 2)
        list.append(el("li", { class: `${x === o.active ? "acting" : ""}${done ? " done" : ""}`, tabindex: "0", dataset: card ? { card } : {} },
          el("span", { text: orderName(x) }),
          speed ? el("span", { class: "muted small", text: ` · Speed ${speed}` }) : null,
          x === o.active ? el("span", { class: "small", text: " · acting" }) : done ? el("span", { class: "muted small", text: " · done" }) : null));
      }
      box.append(el("div", { class: "small" }, el("strong", { text: "Initiative order" }), el("span", { class: "muted", text: " (lowest Speed first)" })), list);
    }
    const tiles = [...new Set((o.tiles || []).map((t) => t.env))];
    if (tiles.length) {
      box.append(el("div", { class: "arena-legend small" }, ...tiles.map((id) => el("span", { tabindex: "0", dataset: { card: `env:${id}` } },
        el("span", { class: "arena-swatch", style: `background:${TILE_FILL[id] || "#999999"}` }), el("span", { text: envName(id) })))));
    }
    const active = units()[o.active];
    if (active && active.kind !== "minion" && (active.pool || []).length) {
      const rolled = active.rolled ? ` — ${active.rolled[0].toUpperCase()}${active.rolled.slice(1)}` : "";
      box.append(el("div", { class: "arena-dice" },
        el("span", { class: "small", text: `${active.name}'s dice${rolled}: ` }),
        ...active.pool.filter((d) => d.kind).map(dieChip)));
    }
    const p = o.pending;
    if (p && p.prompt) {
      const mine = ctx.seat !== null && p.seat === ctx.seat;
      box.append(el("div", { class: "pending-box" },
        el("strong", { text: mine ? "Your decision: " : `${p.decider || "A player"} decides: ` }), el("span", { text: p.prompt })));
    }
  }

  function label(text) {
    const labels = obs().labels || {};
    return labels[text] === undefined || labels[text] === null ? null : places(labels[text]);
  }

  // Hex ids are axial coordinates ("2,-1"), which the board never shows: log lines, buttons and
  // battle results name a hex by where it lies from the centre instead ("2 spaces north-east of
  // the centre"), and a move by its length. (UI audit: "Vhrak moves 3,0 -> 1,-1".)
  const COMPASS = ["east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east"];
  const HEX = /(?<![\w.,-])(-?\d+),(-?\d+)(?![\w.,])/g;
  const spaces = (n) => `${n} space${n === 1 ? "" : "s"}`;
  const dist = (q, r) => (Math.abs(q) + Math.abs(r) + Math.abs(q + r)) / 2;
  function place(q, r) {
    if (!q && !r) return "the centre";
    const x = Math.sqrt(3) * (q + r / 2), y = -1.5 * r; // pointy hexes, screen y downwards
    const dir = COMPASS[Math.round(((Math.atan2(y, x) * 180) / Math.PI + 360) / 45) % 8];
    return `${spaces(dist(q, r))} ${dir} of the centre`;
  }
  function places(text) {
    return String(text)
      .replace(/ moves (-?\d+),(-?\d+) -> (-?\d+),(-?\d+)/g, (_, a, b, c, d) =>
        ` moves ${spaces(dist(Number(c) - Number(a), Number(d) - Number(b)))} to ${place(Number(c), Number(d))}`)
      .replace(/ moves - -> /g, " moves to ")
      .replace(HEX, (_, q, r) => place(Number(q), Number(r)))
      .replace(/\ba (?=[AEIOU]\w* die\b)/g, "an "); // "gains a Ignite die"
  }
  const logText = (line) => places(line);

  function prompt(v) {
    const o = v.observation || {};
    if (o.pending?.prompt) return o.pending.prompt;
    if (o.phase === "pick") return "Choose this round's Initiative card (click a card below the board): lower Speed acts first, and the cards are revealed together.";
    if (o.phase === "place") return "Enter the arena: click a highlighted space of the central zone.";
    if (o.phase === "turns" && o.stage === "target") return "Choose the target of your attack: click a highlighted figure or a button.";
    if (o.phase === "turns") return "Move, attack, gain Blood Energy and use Bonus Actions in any order, then end your turn.";
    return "";
  }

  return { look, render, prompt, label, logText };
}
