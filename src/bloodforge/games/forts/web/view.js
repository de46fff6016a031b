// Five Forts in the browser: only the look. The shared area renderer (web/boards/) draws the
// territories from static_info().board (areas with x/y and square polygons, links, seat colours)
// and the armies and marks from observation().board; this module gives the colours, the glyphs
// and the extra panels (planning clock, battle, bribery window) that the shared table shows.
//
// The countdown: observation.clock is {seat, seconds} while a planning minute runs (null
// otherwise). The server owns the real deadline; the table counts down from the server's
// deadline and, when it passes, the server records `timeout <seat>` and the bribery window
// opens (observation.phase === "bribery", observation.bribery = seats still to answer).

export const look = {
  kinds: {
    land: { fill: "#e9e2c8", stroke: "#8a7f5c" },
    sea: { fill: "#b9d3e6", stroke: "#5b7f99" },
  },
  marks: {
    home: { glyph: "\u2302", title: "home: +4 defence for its owner, controlled even when empty" },
    great_fort: { glyph: "\u265c\u265c", title: "great fort: recruits 2 infantry or 1 cavalry, +2 defence" },
    fort: { glyph: "\u265c", title: "fort: recruits 1 infantry" },
    currency: { glyph: "\u25cf", title: "currency: +1 each turn to its controller" },
    food: { glyph: "\u2740", title: "food: +3 to its controller's unit quota" },
  },
  pieces: {
    army: { shape: "shield" },
    independent: { shape: "shield", colour: "#6f6f6f" },
  },
};

function seatName(observation, seat) {
  return observation.seat_names?.[seat] ?? `seat ${seat}`;
}

// Extra panels as plain data ({title, lines}); the shared table renders them as text blocks.
export function panels(observation) {
  const out = [];
  const turn = observation.turn;
  out.push({
    title: `Round ${turn.round} of ${turn.max_rounds}`,
    lines: [`${seatName(observation, turn.seat)}: ${observation.phase}`],
  });
  if (observation.chronicle) {
    out.push({ title: `Chronicle: ${observation.chronicle.name}`, lines: [observation.chronicle.text] });
  }
  if (observation.clock) {
    out.push({
      title: "Planning clock",
      lines: [`${seatName(observation, observation.clock.seat)} has ${observation.clock.seconds} s to move a unit`],
      countdown: observation.clock,
    });
  }
  if (observation.bribery) {
    out.push({
      title: "Bribery",
      lines: [
        `${seatName(observation, turn.seat)} ran out of time.`,
        `To answer: ${observation.bribery.map((s) => seatName(observation, s)).join(", ")}`,
        "A bribe costs the strength of the army (infantry 1, cavalry 2); homes cannot be bribed.",
      ],
    });
  }
  const b = observation.battle;
  if (b) {
    const counts = Object.entries(b.committed_counts).map(([s, n]) => `${seatName(observation, Number(s))}: ${n} face down`);
    out.push({
      title: `Battle for ${b.to}`,
      lines: [
        `${seatName(observation, b.attacker)} attacks from ${b.from} with ${b.infantry} infantry, ${b.cavalry} cavalry`,
        ...counts,
        ...(b.my_committed.length ? [`your cards: ${b.my_committed.join(", ")}`] : []),
      ],
    });
  }
  const forts = observation.forts.map((n, s) => `${seatName(observation, s)} ${n}`);
  out.push({ title: "Forts held (5 for a round wins)", lines: [forts.join(" \u00b7 ")] });
  return out;
}
