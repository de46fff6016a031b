// Kingdoms of Blood: the look of the board for the shared area renderer (web/boards/).
// Geometry comes from static_info().board (areas with x/y, links, bridges); what stands where
// from observation().board (pieces per space and faction, castle/port/owner marks). This module
// only sets colours, glyphs and the legend.

export const look = {
  seats: {
    0: { name: "Elves", colour: "#2e8b57" },
    1: { name: "Humans", colour: "#4a78c2" },
    2: { name: "Dwarves", colour: "#b5651d" },
    3: { name: "Undead", colour: "#7b3fa0" },
  },
  kinds: {
    land: { fill: "#d9cfa5", label: "Territory" },
    sea: { fill: "#9cc3de", label: "Sea zone", shape: "hex" },
  },
  marks: {
    castle: { glyph: "♜", label: "castle" },
    port: { glyph: "⚓", label: "port" },
    owner_elves: { tint: "#2e8b57" },
    owner_humans: { tint: "#4a78c2" },
    owner_dwarves: { tint: "#b5651d" },
    owner_undead: { tint: "#7b3fa0" },
  },
  pieces: {
    infantry: { glyph: "⚔", label: "infantry" },
    cavalry: { glyph: "♞", label: "cavalry" },
    griffin: { glyph: "🦅", label: "griffin" },
    dragon: { glyph: "🐉", label: "dragon" },
    ship: { glyph: "⛵", label: "ship" },
    hidden: { glyph: "?", label: "face-down piece" },
  },
  // areas carrying a victory gem get a gem badge; capitals a crown
  areaBadges(area) {
    const out = [];
    if (area.gem) out.push("◆");
    if (area.capital) out.push("♛");
    if (area.value) out.push(String(area.value));
    return out;
  },
};

export default look;
