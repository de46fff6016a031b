// Five Forts' look in the browser. The shared area renderer (/static/boards/) draws the 6x6 map
// from static_info()["board"] (square polygons, land and sea) and the armies, forts, resources
// and homes from observation()["board"], and turns clicks into legal actions (click your army's
// territory, then a neighbour; a hero card in the hand to commit it). This module sets the
// colours and glyphs and adds the panels the map cannot show: each player's forts, units and
// quota, currency and hand size; the planning clock counting down; the bribery window; the
// battle with its face-down cards; the round's chronicle.
//
// The countdown: observation.clock is {seat, seconds} while a planning minute runs (null
// otherwise); the server's table carries the real deadline (`deadlines[seat]`, unix ms), which
// this panel counts down to; when it passes, the server records `timeout <seat>` and
// observation.phase becomes "bribery" (observation.bribery = the seats still to answer).
import { clear, el } from "/static/common.js";

const KINDS = { land: { fill: "#e9e2c8" }, sea: { fill: "#b9d3e6", glyph: "≈" } };
// A battle's stage as the panel names it.
const STAGES = { heroes: "hero cards", casualties: "the loser removes units", retreat: "the loser retreats", advance: "the winner advances" };
const MARKS = {
  home: { shape: "house", text: "", title: "home (a great fort): +4 defence for its owner, controlled even when empty" },
  great_fort: { shape: "tower", text: "2", title: "great fort: recruits 2 infantry or 1 cavalry, +2 defence" },
  fort: { shape: "tower", text: "", title: "fort: recruits 1 infantry, +1 defence" },
};

export function createView(ctx) {
  const stat = ctx.staticInfo;
  const seats = stat.board.seats || [];
  const heroes = new Map((stat.heroes || []).map((h) => [h.id, h]));
  let view = null;
  let ticker = null;

  const seatName = (seat) => ctx.table?.seats?.[seat]?.name ?? seats[seat]?.name ?? `seat ${seat}`;
  const colour = (seat) => seats[seat]?.colour ?? "#555";

  const look = {
    kinds: KINDS,
    // the map's shorthand in words (a newcomer met "2i 1c", towers and "$f" unexplained)
    legend: [
      { symbol: "2i 1c", text: "2 infantry, 1 cavalry" }, { symbol: "grey", text: "independent army" },
      { symbol: "♜", text: "fort" }, { symbol: "♜2", text: "great fort" }, { symbol: "⌂", text: "home" },
      { symbol: "$", text: "+1 currency a turn" }, { symbol: "f", text: "food: +3 units to your quota" },
    ],
    seatColour: (seat) => colour(seat),
    piece: (p) => (p.kind === "independent"
      ? { shape: "chip", fill: "#6f6f6f", text: p.label, title: `independent army: ${p.label}` }
      : { shape: "chip", text: p.label, title: `${seatName(p.owner)}: ${p.label}` }),
    mark: (m) => {
      const base = MARKS[m.kind];
      if (m.kind === "resources") return { shape: "circle", fill: "#f4e7b0", text: m.label, title: "$: +1 currency each turn · f: +3 to the unit quota" };
      if (!base) return null;
      return m.kind === "home" ? { ...base, fill: colour(m.owner), title: `${m.label}: ${base.title}` } : base;
    },
    handTitle: (v) => {
      const o = v.observation;
      return [el("strong", { text: "Hero cards " }),
        el("span", { class: "muted", text: `${o.hand.length} of ${stat.hand_limit} · price ${o.hero_price}` })];
    },
    handItem: (item) => {
      const h = heroes.get(item.id);
      return [el("strong", { text: h?.name ?? item.id }), el("span", { class: "small muted", text: h?.text ?? "" })];
    },
  };

  function render(v) {
    view = v;
    // the players panel is the page's, with the status board from observation["status"]
    drawExtra();
  }

  function secondsLeft(seat) {
    const d = ctx.table?.deadlines?.[String(seat)];
    const at = typeof d === "object" && d !== null ? d.at : d;
    return typeof at === "number" ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : null;
  }

  function drawExtra() {
    const box = clear(ctx.extra);
    const o = view.observation;
    if (ticker) { clearInterval(ticker); ticker = null; }
    const parts = [];
    if (o.chronicle) parts.push(el("div", { class: "chronicle" }, el("strong", { text: `Chronicle: ${o.chronicle.name}` }), el("div", { class: "small", text: o.chronicle.text })));
    if (o.clock) {
      const line = el("div", { class: "clock", "data-seat": String(o.clock.seat) });
      const tick = () => {
        const left = secondsLeft(o.clock.seat);
        const text = left === null
          ? `${seatName(o.clock.seat)} plans: ${o.clock.seconds} s to move a unit`
          : `${seatName(o.clock.seat)} plans: ${left} s left to move a unit`;
        // only a changed text is written: the same text written twice a second repainted the
        // panel for nothing while the page sat idle
        if (line.textContent !== text) line.textContent = text;
      };
      tick();
      ticker = setInterval(tick, 500);
      parts.push(el("div", { class: "planning-clock" }, el("strong", { text: "Planning clock" }), line));
    }
    if (o.bribery) {
      parts.push(el("div", { class: "bribery" },
        el("strong", { text: `Bribery: ${seatName(o.turn.seat)} ran out of time` }),
        el("div", { class: "small", text: `To answer: ${o.bribery.map(seatName).join(", ")}. A bribe costs the army's strength (infantry 1, cavalry 2); homes cannot be bribed.` })));
    }
    const b = o.battle;
    if (b) {
      // territory names and the stage in words (the panel showed ids: "Battle for frostwall
      // (advance)"), each side's hero cards on one line: face down until revealed, then named
      const side = (s) => (s === "independent" ? "Independents" : seatName(Number(s)));
      const seatsIn = [...new Set([...Object.keys(b.committed_counts || {}), ...Object.keys(b.revealed || {})])];
      const cardsOf = seatsIn.map((s) => {
        const shown = b.revealed?.[s];
        const what = shown ? shown.map((c) => heroes.get(c)?.name ?? c).join(", ") || "no hero cards"
          : `${b.committed_counts?.[s] ?? 0} hero card${b.committed_counts?.[s] === 1 ? "" : "s"} face down`;
        return `${side(s)}: ${what}`;
      });
      const army = [b.infantry ? `${b.infantry} infantry` : "", b.cavalry ? `${b.cavalry} cavalry` : ""].filter(Boolean).join(" and ") || "no units";
      parts.push(el("div", { class: "battle" },
        el("strong", { text: `Battle for ${nm(b.to)}${STAGES[b.stage] ? ` · ${STAGES[b.stage]}` : ""}` }),
        el("div", { class: "small", text: `${side(b.attacker)} attacks from ${nm(b.from)} with ${army}; ${b.defender === "independent" ? "the independent army" : side(b.defender)} defends` }),
        ...cardsOf.map((t) => el("div", { class: "small muted", text: t })),
        b.my_committed.length ? el("div", { class: "small", text: `your cards: ${b.my_committed.map((c) => heroes.get(c)?.name ?? c).join(", ")}` }) : null));
    }
    box.hidden = parts.length === 0;
    box.append(...parts);
  }

  function prompt(v) {
    const o = v.observation;
    const has = (verb) => v.legal.some((t) => t === verb || t.startsWith(`${verb} `));
    if (has("commit")) return "Battle: click hero cards to commit them face down, then Ready.";
    if (has("lose")) return "You lost the battle: choose the units to remove.";
    if (has("retreat")) return "Retreat each surviving unit to a highlighted territory.";
    if (has("advance")) return "You won: advance, or leave one unit behind.";
    if (has("disband")) return "Over your food quota: disband units until you are within it.";
    if (has("pass")) return "Bribery: click one of the late player's territories to bribe it, or pass.";
    if (o.phase === "planning") return o.timed_out || !o.clock
      ? "Plan: recruit, buy a hero card, then move a unit."
      : "Plan: recruit, buy a hero card, then move a unit before the minute runs out.";
    if (o.phase === "action") return "Move or attack with units that may still act; End turn when done.";
    return "";
  }

  // Short button texts: territory names without their features, and the bribe's real price
  // (the army's strength, defect 5) with the disbanding it forces.
  const areaName = new Map((stat.board.areas || []).map((a) => [a.id, a.label ?? a.name]));
  const nm = (id) => areaName.get(id) ?? id;
  const army = (i, c) => [Number(i) ? `${i} inf` : "", Number(c) ? `${c} cav` : ""].filter(Boolean).join(" + ") || "nobody";
  function label(text) {
    const [verb, ...a] = text.split(" ");
    if (verb === "move") return `${nm(a[0])} → ${nm(a[1])}: ${army(a[2], a[3])}`;
    if (verb === "attack") return `Attack ${nm(a[1])} from ${nm(a[0])}: ${army(a[2], a[3])}`;
    if (verb === "recruit") return `Recruit ${a[1]} at ${nm(a[0])}`;
    if (verb === "retreat") return `Retreat one ${a[0]} to ${nm(a[1])}`;
    if (verb === "disband") return `Disband one ${a[1]} at ${nm(a[0])}`;
    if (verb === "bribe") {
      const offer = (view?.observation.bribes || []).find((b) => b.territory === a[0]);
      if (!offer) return `Bribe the army in ${nm(a[0])}`;
      const warn = offer.disband ? ` — then disband ${offer.disband} unit${offer.disband > 1 ? "s" : ""}` : "";
      return `Bribe ${offer.army} in ${nm(a[0])} for ${offer.cost} currency${warn}`;
    }
    return undefined;
  }

  // A bribe that puts the briber over the food quota forces disbanding at once: say so before.
  function confirm(text) {
    const m = /^bribe (\S+)$/.exec(text);
    if (!m) return null;
    const offer = (view?.observation.bribes || []).find((b) => b.territory === m[1]);
    if (!offer?.disband) return false;
    return `Bribing ${offer.army} in ${nm(m[1])} costs ${offer.cost} currency and puts you over your food quota: you will have to disband ${offer.disband} unit${offer.disband > 1 ? "s" : ""} at once. Bribe?`;
  }

  // The log names seats by colour ("Red moves ..."), as the terminal shows them; the page names
  // the player as the panels do: "Ann (Red)" (issue 18). Seat names are per table, hence here.
  const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const colourWords = seats.length ? new RegExp(`(?<![(\\w])(${seats.map((s) => escape(String(s.name))).join("|")})\\b(?![)])`, "g") : null;
  function logText(line) {
    if (!colourWords) return line;
    return line.replace(colourWords, (word) => {
      const seat = seats.find((s) => s.name === word)?.seat;
      const player = ctx.table?.seats?.[seat]?.name;
      return player && player !== word ? `${player} (${word})` : word;
    });
  }

  // the seat a log line is about (it starts with the seat's colour): the page marks AI lines
  function logSeat(line) {
    const first = /^(\w+)/.exec(line)?.[1];
    return seats.find((s) => s.name === first)?.seat ?? null;
  }

  return { look, render, prompt, label, confirm, logText, logSeat };
}
