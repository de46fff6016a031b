// Kingdoms of Blood: the look of the shared area board, plus a panel with prices, the battle in
// progress and who commands what. Geometry comes from static_info().board (outlines traced from
// the map's drawing), what stands where from observation().board; the status board (crowns,
// income, supply, gems per seat) is the page's, from observation().status.
import { clear, el } from "/static/common.js";

const FACTION_COLOURS = ["#2e8b57", "#4a78c2", "#b5651d", "#7b3fa0"];
const PHASE_HELP = {
  purchase: "Buy units with your crowns (they arrive when new units are placed, at the end of the turn), or hire mercenaries; then End phase.",
  combat_move: "Attack: click a territory with your units, then an enemy or empty territory to move into. End phase when your attacks are set.",
  combat: "Fight the battles you started: choose each one, then follow the dice.",
  noncombat: "Move units that did not fight (click a territory of yours, then a friendly one), then End phase.",
  place: "Place the units you bought: click one of your castles.",
};
const GLYPHS = { infantry: "⚔", cavalry: "♞", griffin: "G", dragon: "D", ship: "S", hidden: "?" };
const BUYABLE = ["infantry", "cavalry", "griffin", "dragon", "ship", "castle", "port"];

export function createView(ctx) {
  const info = ctx.staticInfo ?? {};
  const areas = new Map((info.board?.areas ?? []).map((a) => [a.id, a]));
  const units = info.units ?? {};
  const names = info.board?.names ?? {};
  const factionName = (f) => ({ elves: "Elves", humans: "Humans", dwarves: "Dwarves", undead: "Undead" })[f] ?? f;
  const spaceName = (id) => areas.get(id)?.name ?? names[id] ?? String(id ?? "");
  const cost = (kind) => (units[kind] ? `${units[kind].cost} crowns` : "");

  function priceList(obs) {
    const crowns = (obs.factions ?? []).find((f) => f.faction === obs.active)?.treasury;
    const box = el("div", { class: "kd-prices" },
      el("strong", { text: "Prices" }),
      crowns === undefined ? null : el("span", { class: "muted", text: ` · ${factionName(obs.active)} have ${crowns} crowns` }));
    const list = el("div", { class: "kd-price-list" });
    for (const kind of BUYABLE) {
      const u = units[kind];
      if (!u) continue;
      const stats = u.cls === "common" ? `defence ${u.defence}` : `attack ${u.attack} · defence ${u.defence} · move ${u.move}`;
      list.append(el("span", { class: "kd-price", tabindex: "0", dataset: { card: kind } },
        el("strong", { text: `${u.name} ${u.cost}` }), el("span", { class: "muted", text: ` (${stats})` })));
    }
    if (info.mercenary_cost !== undefined) {
      list.append(el("span", { class: "kd-price" }, el("strong", { text: `Mercenary card ${info.mercenary_cost}` }),
        el("span", { class: "muted", text: ` (+${info.mercenary_supply} supply while held)` })));
    }
    box.append(list);
    return box;
  }

  return {
    look: {
      kinds: {
        land: { fill: "#e4dcb8", label: "territory" },
        sea: { fill: "#a9cbe3", label: "sea zone" },
      },
      seatColour: (seat) => FACTION_COLOURS[seat % FACTION_COLOURS.length],
      // the map's numbers and glyphs in words (they were explained nowhere on the page)
      legend: [
        { symbol: "3", text: "territory value: crowns a turn, units its castle can produce" },
        { symbol: "◆", text: "victory gem" }, { symbol: "♜", text: "castle" }, { symbol: "⚓", text: "port" },
        { symbol: "⚔", text: "infantry" }, { symbol: "♞", text: "cavalry" }, { symbol: "G", text: "griffin" },
        { symbol: "D", text: "dragon" }, { symbol: "S", text: "ship" }, { symbol: "?", text: "unseen pieces" },
      ],
      piece: (piece) => ({
        fill: FACTION_COLOURS[piece.owner % FACTION_COLOURS.length],
        text: GLYPHS[piece.kind] ?? "?",
        badge: piece.count > 1 ? String(piece.count) : undefined,
        shape: piece.kind === "ship" ? "chip" : "circle",
        title: `${["Elves", "Humans", "Dwarves", "Undead"][piece.owner] ?? ""}: ${piece.count} `
          + `${piece.hidden ? "face-down piece" + (piece.count > 1 ? "s" : "") : (names[piece.kind] ?? piece.kind).toLowerCase()}`,
      }),
      mark: (mark) => {
        if (mark.kind === "castle") return { text: "♜", shape: "tower", title: "castle" };
        if (mark.kind === "port") return { text: "⚓", shape: "square", title: "port" };
        return null; // owners: only the cell class mark-owner_<faction> (view.css tints it)
      },
      cellTitle: (cell) => {
        const a = areas.get(cell.id) ?? cell;
        const bits = [a.name ?? cell.id];
        if (a.value) bits.push(`value ${a.value}`);
        if (a.gem) bits.push("victory gem");
        if (a.capital) bits.push("capital");
        return bits.join(", ");
      },
    },
    render(view) {
      const box = clear(ctx.extra);
      if (!box) return;
      const obs = view.observation ?? {};
      if (obs.battle) {
        const b = obs.battle;
        box.append(el("div", { class: "battle kd-battle", text:
          `Battle at ${spaceName(b.space)}: ${factionName(b.attacker)} attack ${factionName(b.defender)}, round ${b.round}` }));
      }
      if (obs.phase === "purchase" && !obs.battle) box.append(priceList(obs));
      box.hidden = !box.childElementCount; // the page hides #extra until a game fills it (defect 1)
    },
    label(text) {
      const [verb, arg] = text.split(" ");
      if (verb === "buy" && units[arg]) return `Buy ${units[arg].name} (${cost(arg)})`;
      if (verb === "hire" && info.mercenary_cost !== undefined) return `Hire mercenaries (${info.mercenary_cost} crowns)`;
      return undefined;
    },
    // what to do now, in words (the prompt repeated the phase heading above it: "Round 1 ·
    // Dwarves: buy units" twice); battles and choices keep the game's own words
    prompt(view, mine) {
      const obs = view.observation ?? {};
      const phase = obs.phase_label ?? "";
      if (!mine) return phase;
      if (obs.battle || obs.pending_disband || obs.instant) return `${phase}.`;
      return PHASE_HELP[obs.phase] ?? `${phase}.`;
    },
  };
}
