// Kingdoms of Blood: the look of the shared area board, plus a panel with the public tracks.
// Geometry comes from static_info().board, what stands where from observation().board; this
// module only chooses colours and glyphs and shows treasuries, income, supply and gems.
import { clear, el } from "/static/common.js";

const FACTION_COLOURS = ["#2e8b57", "#4a78c2", "#b5651d", "#7b3fa0"];
const GLYPHS = { infantry: "⚔", cavalry: "♞", griffin: "G", dragon: "D", ship: "⛵", hidden: "?" };

export function createView(ctx) {
  const areas = new Map((ctx.staticInfo?.board?.areas ?? []).map((a) => [a.id, a]));
  return {
    look: {
      kinds: {
        land: { fill: "#e4dcb8", label: "territory" },
        sea: { fill: "#a9cbe3", label: "sea zone" },
      },
      seatColour: (seat) => FACTION_COLOURS[seat % FACTION_COLOURS.length],
      piece: (piece) => ({
        fill: FACTION_COLOURS[piece.owner % FACTION_COLOURS.length],
        text: GLYPHS[piece.kind] ?? "?",
        badge: piece.count > 1 ? String(piece.count) : undefined,
        shape: piece.kind === "ship" ? "chip" : "circle",
        title: `${piece.count} ${piece.hidden ? "face-down piece(s)" : piece.kind}`,
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
      const box = clear(ctx.extra ?? ctx.players);
      const obs = view.observation ?? {};
      for (const f of obs.factions ?? []) {
        box.append(el("div", { class: `player${obs.active === f.faction ? " to-move" : ""}` },
          el("strong", { text: f.faction }),
          el("span", { text: ` crowns ${f.treasury} · income ${f.income} · supply ${f.supply} · gems ${f.gems}`
            + ` · cards ${f.cards}${f.out ? " (out)" : ""}` })));
      }
      if (obs.battle) {
        const b = obs.battle;
        box.append(el("div", { class: "battle", text:
          `Battle at ${b.space}: ${b.attacker} attack ${b.defender}, round ${b.round} (${b.stage})` }));
      }
    },
    prompt(view, mine) {
      const obs = view.observation ?? {};
      if (!mine) return `${obs.active ?? ""} to play (${obs.phase ?? ""})`;
      return `Your move: ${obs.battle ? "battle at " + obs.battle.space : obs.phase}`;
    },
  };
}
