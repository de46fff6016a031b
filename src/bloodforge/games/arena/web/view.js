// BLOODSTONE arena's look in the browser. The shared hex renderer (/static/boards/) draws the arena
// from static_info()["board"] and the figures and tiles from observation()["board"], and turns
// clicks into legal actions. This module only sets colours and glyphs and adds a panel with the
// initiative order, every combatant's HP, Blood Energy and dice, and the decision being waited on.
import { clear, el } from "/static/common.js";

const KINDS = { floor: { fill: "#dccfb4" }, central: { fill: "#c9ab7c" } };
const NPC_FILL = { boss: "#5b1a1a", rival: "#3f4d6b", minion: "#6f6f6f" };
const TILE_FILL = {
  hellfire_spray: "#e4572e", spectral_thorns: "#5b8c3a", spike_traps: "#7d7d7d", ice_slicks: "#9ad1f5",
  springboards: "#f2c14e", the_arm: "#b23a48", bloodshard_columns: "#8e1b1b", spawn_pits: "#4b3f72", trap: "#a0522d",
};

export function createView(ctx) {
  let view = null;
  const units = () => Object.fromEntries((view?.observation?.units || []).map((u) => [u.id, u]));

  const look = {
    kinds: KINDS,
    piece: (p) => {
      const u = units()[p.id] || {};
      const hp = u.hp === null || u.hp === undefined ? "" : String(u.hp);
      return {
        fill: u.seat === null || u.seat === undefined ? NPC_FILL[u.kind] : undefined,
        text: (u.name || "?").slice(0, 2), badge: hp,
        title: `${u.name || p.id}${hp ? `: ${hp}/${u.max_hp} HP` : ""}, ${u.energy ?? 0} Blood Energy`,
      };
    },
    mark: (m) => ({ fill: TILE_FILL[m.kind] || "#999999", title: m.label }),
  };

  function render(v) {
    view = v;
    drawPanel();
  }

  function dice(u) {
    return (u.pool || []).map((d) => `${d.kind}${d.face === null || d.face === undefined ? "" : `:${d.face}`}${d.used ? "✓" : ""}`).join(" ");
  }

  function drawPanel() {
    const box = clear(ctx.extra);
    const o = view.observation || {};
    box.append(el("div", { class: "muted small", text: `Round ${o.round ?? 0} · ${o.phase ?? ""}${o.active ? ` · ${o.active} acting` : ""}` }));
    if ((o.order || []).length) box.append(el("div", { class: "small", text: `Order: ${o.order.join(" › ")}` }));
    const list = el("div", { class: "player-stats" });
    for (const u of o.units || []) {
      if (u.kind === "minion" && !u.alive) continue;
      const hp = u.hp === null || u.hp === undefined ? "no HP" : `${Math.max(u.hp, 0)}/${u.max_hp} HP`;
      const state = u.alive ? `${hp} · BE ${u.energy} · speed ${u.speed ?? "-"}` : "defeated";
      list.append(el("div", { class: "small" }, el("strong", { text: `${u.name} ` }), el("span", { text: state }),
        u.alive && u.kind !== "minion" ? el("span", { class: "muted", text: `  [${dice(u)}]` }) : null));
    }
    box.append(list);
    const p = o.pending;
    if (p) {
      box.append(el("div", { class: "pending-box" }, el("strong", { text: `Waiting: seat ${p.seat} decides ${p.kind.replace(/_/g, " ")} ` }),
        el("span", { text: (p.options || []).join(", ") })));
    }
  }

  function prompt(v) {
    const o = v.observation || {};
    if (o.pending) return "Choose for the waiting decision (an NPC's path, a push step, a die, a target).";
    if (o.phase === "pick") return "Choose this round's Initiative card; the cards are revealed together.";
    if (o.phase === "place") return "Enter the arena: click a highlighted space of the central zone.";
    return "";
  }

  return { look, render, prompt };
}
