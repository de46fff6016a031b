// Blood Stone's look in the browser. The shared square-grid renderer (/static/boards/) draws the
// board from static_info()["board"] and the units from observation()["board"], and turns clicks
// into legal actions (click a unit, then a highlighted square or target; click a spell card to
// cast or discard it). This module sets the colours and glyphs, shows each unit's blood, the
// spell cards' chance, range and effect, both sides' units and the spell being cast.
import { clear, el } from "/static/common.js";

const SIDE_COLOUR = { soldiers: "#28568f", witch: "#7d1f4f" };
const SQUARES = {
  plain: { fill: "#e9dfc8" }, darkened: { fill: "#3b332c" },
  soldier_start: { fill: "#cfdcec" }, witch_start: { fill: "#e8cfd9" },
};

export function createView(ctx) {
  let view = null;
  const units = () => view?.observation.units || {};
  const seatName = (seat) => ctx.table.seats[seat]?.name ?? `seat ${seat}`;

  const look = {
    kinds: SQUARES,
    seatColour: (seat) => (seat === 0 ? SIDE_COLOUR.soldiers : SIDE_COLOUR.witch),
    piece: (p) => {
      const u = units()[p.id] || {};
      const state = `${u.zombified ? ", zombified" : ""}${u.bound ? ", bound" : ""}`;
      return {
        // zombified: a colour, a dashed outline and a skull before the glyph, not colour alone
        fill: u.zombified ? "#4f7a3a" : undefined, text: u.zombified ? `☠${u.glyph ?? ""}` : u.glyph ?? "?", badge: u.blood,
        class: `${u.zombified ? "zombified" : ""} ${u.bound ? "bound" : ""}`,
        title: `${u.name}: ${u.blood}/${u.max_blood} blood, moves ${u.movement}${u.attack ? `, attack ${u.attack}` : ""}${state}`,
      };
    },
    // each kind of unit on the board by its token (glyph, side colour) and full name, and what
    // the number on a token means: a newcomer met "B", "R", "G", "Y" and red numbers unexplained
    legend: (v) => {
      const us = v.observation?.units || {};
      const seen = new Set();
      const items = [];
      for (const p of v.observation?.board?.pieces || []) {
        const u = us[p.id];
        if (!u || u.zombified) continue;
        const key = `${u.glyph}|${u.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        items.push({ symbol: u.glyph ?? "?", text: u.name, fill: SIDE_COLOUR[u.side] });
      }
      if (Object.values(us).some((u) => u.zombified)) items.push({ symbol: "☠", text: "zombified Soldier (can no longer act; counts for the Witch)", fill: "#4f7a3a" });
      if (items.length) items.push({ symbol: "3", text: "the number on a token: its blood left", fill: "#a00000" });
      return items;
    },
    handTitle: (v) => [el("strong", { text: "Your spells " }),
      el("span", { class: "muted", text: `${(v.observation.hand || []).length} card${(v.observation.hand || []).length === 1 ? "" : "s"} · blood supply ${v.observation.supply}` })],
    handItem: (item, v) => {
      const card = (v.observation.hand || []).find((c) => c.id === item.id);
      if (!card) return null;
      return [el("strong", { text: card.name }), el("span", { class: "small", text: `Chance ${card.chance.text}` }),
        el("span", { class: "small", text: `Range ${card.range}` }), el("span", { class: "small muted", text: card.effect.text })];
    },
  };

  function render(v) {
    view = v;
    // the players panel is the page's, with the status board from observation["status"]
    drawPending();
  }

  const names = ctx.staticInfo.board?.names || {};
  const nameOf = (id) => names[id] ?? String(id).replace(/_/g, " ");
  const percent = (p) => `${Math.round(p * 100)}%`;

  // The spell being cast, in words, with the chance it passes (computed by the game).
  function drawPending() {
    const box = clear(ctx.pending);
    const p = view.observation.pending;
    if (!p) return;
    const parts = [el("strong", { text: `Casting ${nameOf(p.card)}` })];
    if (p.target) parts.push(el("span", { text: ` on ${nameOf(p.target)}` }));
    const chances = view.observation.pass_chance || {};
    if (chances.any !== undefined) parts.push(el("span", { class: "chance", text: ` · passes with ${percent(chances.any)}` }));
    else if (Object.keys(chances).length) {
      parts.push(el("div", { class: "chance small", text: `Chance to pass by blood paid: ${Object.entries(chances).filter(([x]) => x !== "0").map(([x, c]) => `X=${x}: ${percent(c)}`).join(" · ")}` }));
    }
    box.append(el("div", { class: "pending-box" }, ...parts));
  }

  // The side a unit fights for: a zombified Soldier fights for the Witch.
  const sideOf = (id) => { const u = units()[id]; return u ? (u.zombified ? "witch" : u.side) : null; };
  // "attack a b" on a unit of the player's own side (legal: friendly fire), else null.
  function ownTarget(text) {
    const m = /^attack (\S+) (\S+)$/.exec(text);
    const you = view?.observation.you;
    return m && you && sideOf(m[2]) === you ? m : null;
  }

  // "pay 2" reads "Pay 2 blood — 50% to pass"; an attack on a unit of your own side says so
  // ("Swordsman attacks your own Archer"): the rules allow it, nobody should do it by mistake.
  function label(text) {
    const own = ownTarget(text);
    if (own) return `${nameOf(own[1])} attacks your own ${nameOf(own[2])}`;
    const m = /^pay (\d+)$/.exec(text);
    const chances = view?.observation.pass_chance;
    if (!m || !chances) return undefined;
    const c = chances[m[1]] ?? chances.any ?? (Number(m[1]) > 0 ? 1 : undefined);
    return `Pay ${m[1]} blood${c === undefined ? "" : ` — ${percent(c)} to pass`}`;
  }

  function prompt(v) {
    const o = v.observation;
    if (o.phase === "place") return "Place your pieces: click a highlighted start square.";
    if (o.pending) return v.legal.some((t) => t.startsWith("pay ")) ? "Pay blood for the spell: choose X." : "Choose the spell's target (highlighted).";
    return "";
  }

  // Friendly fire asks first, however it was chosen (a button, or a click on the board, which
  // plays a single possible attack at once).
  function confirm(text) {
    const own = ownTarget(text);
    return own ? `${nameOf(own[2])} is on your own side: attack it anyway?` : null;
  }

  return { look, render, prompt, label, confirm };
}
