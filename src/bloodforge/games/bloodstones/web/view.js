// Bloodstones' look in the browser. The shared area renderer (/static/boards/) draws the map,
// the stacks, villages and citadels from static_info()["board"] and observation()["board"] and
// turns clicks into legal actions; this module sets the colours and glyphs and adds the panels
// the map cannot show: players' tracks, the hand's pips and costs, the partial choice, the
// battle, and what is in the area under the mouse.
import { clear, el } from "/static/common.js";

const TERRAIN = {
  plains: { fill: "#dfe8b0" }, forest: { fill: "#8fbf73" }, hills: { fill: "#d2b27a", glyph: "⌒⌒" },
  mountains: { fill: "#a39a92", glyph: "▲▲" }, desert: { fill: "#f1dfa8", glyph: "∴" }, sea: { fill: "#9cc9e8" },
};
const FACTION_COLOUR = {
  dragon_riders: "#c0392b", horse_lords: "#d49a00", hill_folk: "#8e5a2b",
  necromancers: "#7d3c98", corsairs: "#117a8b", chaos_horde: "#2e4053",
};
const SEAT_COLOUR = ["#c0392b", "#2471a3", "#d49a00", "#7d3c98", "#117a8b", "#2e4053"];
const GLYPH = { castle: "♜", ship: "⚓", dragon: "D", leader: "★", cavalry: "♞", giant: "G", siege_engine: "⚙", necromancer: "☠", undead: "☠" };

export function createView(ctx) {
  const stat = ctx.staticInfo;
  const areas = new Map(stat.map.areas.map((a) => [String(a.id), a]));
  let view = null;
  let lastBattle = null; // the last fight's result stays on show after the battle ends
  let finished = false;

  const obs = () => view.observation;
  // `v`: the view to read the faction from (the page draws its players panel before render)
  const factionOf = (seat, v = view) => v?.observation?.players?.[seat]?.faction;
  const colour = (seat, v = view) => FACTION_COLOUR[factionOf(seat, v)] || SEAT_COLOUR[seat % SEAT_COLOUR.length];
  const seatName = (seat) => ctx.table.seats[seat]?.name ?? `P${seat}`;
  const unitInfo = (seat, unit) => stat.factions[factionOf(seat)]?.units?.[unit];
  const nice = (u) => String(u).replace(/_/g, " ");
  const cap = (t) => t.charAt(0).toUpperCase() + t.slice(1);
  const glyph = (unit) => GLYPH[unit] || GLYPH[unitInfo(0, unit)?.base] || "";

  const look = {
    kinds: TERRAIN,
    seatColour: (seat, v) => colour(seat, v ?? view),
    piece: (p) => ({
      shape: "chip", text: String(p.count), sub: Object.keys(p.units || {}).map(glyph).join("").slice(0, 5),
      title: `${seatName(p.owner)}: ${p.label}`,
    }),
    // what the map's tokens mean, for what is on the board now: an army's number, the glyphs of
    // its special units, villages and citadels (a newcomer met "3" chips with "★♞" under them,
    // houses and towers with only the terrain explained beside the map)
    legend: (v) => {
      const board = v?.observation?.board || {};
      const pieces = board.pieces || [];
      const items = [];
      if (pieces.length) items.push({ symbol: "3", text: "army: its number of units (hover for which)", fill: colour(v.observation.seat ?? 0, v) });
      const glyphs = new Map(); // glyph -> the units on the board it stands for (☠: necromancer, undead)
      for (const p of pieces) {
        for (const unit of Object.keys(p.units || {})) {
          const g = glyph(unit);
          if (g) glyphs.set(g, (glyphs.get(g) || new Set()).add(nice(unit)));
        }
      }
      for (const [g, units] of glyphs) items.push({ symbol: g, text: `in an army: ${[...units].sort().join(", ")}` });
      const marks = board.marks || [];
      if (marks.some((m) => m.kind === "village")) items.push({ symbol: "⌂", text: "village (a number: that many)" });
      if (marks.some((m) => m.kind === "citadel")) items.push({ symbol: "♖", text: "citadel" });
      return items;
    },
    mark: (m) => {
      if (m.kind === "village") return { shape: "house", text: m.count > 1 ? String(m.count) : "", title: `${m.count} village(s) of ${seatName(m.owner)}` };
      if (m.kind === "citadel") return { shape: "tower", text: "", title: `Citadel of ${seatName(m.owner)}` };
      return null; // battle, chosen: the cell's outline shows them (view.css)
    },
    handTitle: (v) => {
      const me = v.observation.players[v.observation.seat];
      if (!me?.faction) return [el("strong", { text: "Your hand " }), el("span", { class: "muted", text: "your tiles come with your faction" })];
      return [el("strong", { text: "Your hand " }), el("span", { class: "muted", text: `${me.hand_count ?? 0} tile${me.hand_count === 1 ? "" : "s"} (refills to ${me.hand_limit ?? me.hand_count}) · bag ${me.bag_count ?? 0}` })];
    },
    handItem: (item, v) => {
      const info = unitInfo(v.observation.seat, item.id) || {};
      const cost = info.build_cost !== null && info.build_cost !== undefined ? `cost ${info.build_cost}` : "—";
      // the tooltip says what the tile does: money (its pips), a unit to build, its battle modifier
      const tip = `${nice(item.id)}: ${info.pips ?? 0} pips to pay with${info.buildable ? `; build for ${info.build_cost}` : ""}${info.modifier ? `; in battle ${modText(info.modifier)}` : ""}`;
      return [el("span", { class: "tile-name", text: nice(item.id), title: tip }), pips(info.pips ?? 0), el("span", { class: "tile-cost", text: cost, title: tip })];
    },
  };

  function pips(n) {
    const box = el("span", { class: "pips", "aria-label": `${n} pips` });
    for (let i = 0; i < n; i++) box.append(el("span", { class: "pip" }));
    return box;
  }

  function render(v, legal) {
    view = v;
    // the players panel is the page's: names plus the status board from observation["status"]
    document.body.classList.toggle("bs-battle", !!v.observation.battle);
    drawPending(legal || []);
    drawBattle(legal || []);
    drawFactionCards(legal || []);
    drawAreaInfo(legal);
  }

  // At faction choice: one card per faction that may still be chosen, with what it plays like.
  function modText(m) {
    if (!m) return "";
    const when = m.when === "always" ? "" : ` ${m.when}`;
    const where = m.terrain ? ` in ${m.terrain}` : "";
    const against = m.against?.length ? ` against ${m.against.map(nice).join(", ")}` : "";
    return `${m.value >= 0 ? "+" : ""}${m.value}${when}${where}${against}${m.wins_ties_when_defending ? ", wins ties defending" : ""}`;
  }

  function drawFactionCards(legal) {
    const choices = legal.filter((t) => t.startsWith("faction ")).map((t) => t.split(" ")[1]);
    if (!choices.length || view.observation.battle) return;
    const box = clear(ctx.extra);
    box.hidden = false;
    box.append(el("h3", { text: "Choose your faction" }));
    const cards = el("div", { class: "faction-cards" });
    for (const id of choices) {
      const f = stat.factions[id];
      if (!f) continue;
      const units = el("ul", { class: "faction-units" });
      for (const [name, u] of Object.entries(f.units)) {
        if (!u.buildable && u.build_cost === null) continue;
        units.append(el("li", { text: `${nice(name)}: ${u.pips} pips, cost ${u.build_cost ?? "—"}${u.modifier ? `, battle ${modText(u.modifier)}` : ""}` }));
      }
      const bonuses = (f.battle_bonuses || []).map(modText).join("; ");
      cards.append(el("div", { class: "faction-card", dataset: { faction: id } },
        el("div", { class: "faction-name" }, el("span", { class: "swatch", style: `background:${FACTION_COLOUR[id] || "#888"}` }), el("strong", { text: ` ${f.name}` })),
        el("div", { class: "small", text: `hand ${f.hand_size} · ${f.villages} villages · captured village ${f.captured_village_vp} VP` }),
        f.powers?.length ? el("div", { class: "small", text: `Powers: ${f.powers.map(nice).join("; ")}` }) : null,
        bonuses ? el("div", { class: "small", text: `Battle bonus: ${bonuses}` }) : null,
        units,
        el("button", { type: "button", class: "primary", dataset: { action: `faction ${id}` }, onclick: () => ctx.act(`faction ${id}`), text: `Play the ${f.name}` })));
    }
    box.append(cards);
  }

  function prompt(v) {
    const o = v.observation;
    const has = (verb) => v.legal.some((t) => t === verb || t.startsWith(`${verb} `));
    if (o.battle) {
      if (has("withdraw") || has("stay")) return "You are attacked: withdraw to a highlighted area or stay and fight.";
      if (has("substitute") || has("keep")) return "Battle: keep your tiles or click a hand tile to substitute it for your lowest.";
      if (has("casualty")) return "You lost the battle: click the unit to lose on the map, or a Lose button in the battle panel.";
      if (has("retreat")) return "Retreat to a highlighted area.";
    }
    if (has("casualty")) return "You lost the battle: click the unit to lose on the map, or a Lose button.";
    if (has("faction")) return "Choose your faction: read the cards below and click one.";
    if (o.pending?.kind === "move") return has("to") ? "Add units (click their area) or click a destination; then pay with hand tiles." : "Pay for the move with hand tiles.";
    if (o.pending) return "Pay with hand tiles (click a tile).";
    if (o.phase === "setup_build") return `Spend your build points (${o.build_points} left): click a hand tile, then a highlighted area — or Done.`;
    if (o.phase === "main_actions") return "Build (a hand tile, then an area), move (your units' area), attack or capture — Done ends your turn.";
    return "";
  }

  function unitList(units) {
    return Object.entries(units).filter(([, n]) => n > 0).map(([u, n]) => `${n} ${nice(u)}`).join(", ") || "nothing";
  }

  function drawPending(legal) {
    const box = clear(ctx.pending);
    const p = obs().pending;
    if (!p) return;
    // another player's choice: its details are private, and the AI's are over in a moment
    if (obs().seat !== obs().active) return;
    const parts = [];
    if (p.group && Object.keys(p.group).length) parts.push(`group in ${p.group_area}: ${unitList(p.group)}`);
    if (p.kind === "build" && p.unit) parts.push(`${nice(p.unit)} in ${p.area}`);
    if (p.targets && p.targets.length) parts.push(`areas ${p.targets.join(", ")}`);
    // the arithmetic of paying (UI audit: "cost 18 · paid swords, resources" left the player to
    // add up the tiles' pips): what each tile gave and how many pips are still to pay
    if (p.cost !== undefined && p.cost !== null) parts.push(`cost ${p.cost} pips`);
    if (p.paid && p.paid.length) {
      const pipsOf = (t) => unitInfo(obs().seat, t)?.pips ?? 0;
      const given = p.paid.reduce((sum, t) => sum + pipsOf(t), 0);
      parts.push(`paid ${p.paid.map((t) => `${nice(t)} (${pipsOf(t)})`).join(", ")}`);
      if (p.cost !== undefined && p.cost !== null) parts.push(given >= p.cost ? "paid in full" : `${p.cost - given} to go`);
    }
    const what = { move: "a move", build: "a build", capture: "a capture", village: "villages" }[p.kind] ?? "an action";
    box.append(el("div", { class: "pending-box" }, el("strong", { text: `Choosing ${what}` }), parts.length ? el("span", { text: ` — ${parts.join(" · ")}` }) : null));
    if (p.kind === "move" && p.group_area !== null && p.group_area !== undefined) box.append(stackControl(p, legal));
  }

  // A stack moves in one gesture: after its first unit is picked, every other unit of the area
  // is added with one click ("All"), or a few of a kind with "+1"; then a click on a highlighted
  // destination moves the group. Each click plays the rules' own `move <area> <unit>`.
  let queue = [];
  let queuedAt = null;
  function stackControl(p, legal) {
    const adds = legal.filter((t) => t.startsWith(`move ${p.group_area} `));
    const box = el("div", { class: "stack-control" });
    if (!adds.length) return box;
    const here = obs().areas.find((a) => String(a.id) === String(p.group_area))?.units?.[String(obs().seat)] || {};
    const missing = [];
    for (const t of adds) {
      const unit = t.split(" ")[2];
      const left = (here[unit] ?? 0) - (p.group?.[unit] ?? 0);
      for (let i = 0; i < left; i++) missing.push(t);
      box.append(el("span", { class: "stack-row" }, el("span", { text: `${cap(nice(unit))}: ${p.group?.[unit] ?? 0} of ${here[unit] ?? 0}` }),
        el("button", { type: "button", class: "small", dataset: { action: t }, onclick: () => ctx.act(t), text: "+1" })));
    }
    box.prepend(el("button", { type: "button", class: "primary stack-all", onclick: () => { queue = missing.slice(); pump(); },
      text: `Take all ${missing.length + Object.values(p.group || {}).reduce((a, n) => a + n, 0)} units` }));
    return box;
  }

  // Plays the queued additions one by one, each once the page shows the previous one's result.
  function pump() {
    if (!queue.length || !view) return;
    if (!view.legal.includes(queue[0])) { queue = []; return; }
    if (queuedAt === view.version) return;
    queuedAt = view.version;
    ctx.act(queue[0]);
    setTimeout(() => { if (queuedAt === view.version) { queuedAt = null; pump(); } }, 400); // refused while busy: again
  }
  function afterRender() {
    if (queue.length && queuedAt !== null && view.version !== queuedAt) { queue.shift(); queuedAt = null; setTimeout(pump, 0); }
  }

  function drawBattle(legal) {
    afterRender();
    const panel = clear(ctx.extra);
    let box = panel;
    let b = obs().battle;
    if (b && b.winner !== null && b.winner !== undefined) lastBattle = b;
    if (b) finished = false;
    if (!b && lastBattle) { b = lastBattle; finished = true; }
    panel.hidden = !b;
    if (!b) return;
    const where = `area ${b.area} (${areas.get(String(b.area))?.terrain ?? "?"})`;
    if (finished) {
      // a fight that is over: one line with its result, the details on demand
      const [a, d] = b.sides;
      box = el("details", { class: "last-battle" });
      box.append(el("summary", {}, el("strong", { text: `Last battle in ${where}: ` }),
        `${seatName(b.winner)} won, ${a.total ?? "?"} to ${d.total ?? "?"}`));
      panel.append(box);
    } else {
      box.append(el("h3", { text: `Battle in ${where}` }));
      // the decision first, so it is seen without scrolling (defect 3): the loser's casualty
      const choices = legal.filter((t) => t.startsWith("casualty "));
      if (choices.length) {
        box.append(el("div", { class: "battle-choice" }, el("strong", { text: "Choose your casualty (or click the unit on the map): " }),
          ...choices.map((t) => el("button", { type: "button", class: "primary", dataset: { action: t, card: `${factionOf(obs().seat)}.${t.split(" ")[1]}` }, onclick: () => ctx.act(t), text: `Lose ${nice(t.split(" ")[1])}` }))));
      }
      const step = { withdraw: "withdraw or stay", substitute: "battle tiles", casualty: "casualty", retreat: "retreat", raise: "raising Undead" }[b.step] ?? "";
      box.append(el("div", { class: "muted small", text: `${step}${b.fights ? ` · fought again ${b.fights}×` : ""}` }));
    }
    const top = stat.count_top ?? 3;
    b.sides.forEach((side, i) => {
      const tiles = el("div", { class: "battle-tiles", dataset: { side: String(i) } });
      const fighting = side.fighting ?? side.tiles;
      if (fighting) {
        // the tiles the rules fight with (a substitute replaces the lowest drawn one); the best
        // `top` of them count, the rest are shown struck through
        fighting.forEach((t, k) => tiles.append(el("span", {
          class: `btile ${k < top ? "counted" : "uncounted"}`, text: t,
          title: k < top ? "counted" : `not counted: only the best ${top} tiles count`,
        })));
      } else {
        for (let k = 0; k < side.tile_count; k++) tiles.append(el("span", { class: "btile hidden", text: "?", title: "hidden until the tiles are revealed" }));
      }
      const sub = side.substitute_used ?? side.substitute;
      if (sub) tiles.append(el("span", { class: "sub", text: `(with ${nice(sub)} from hand for the lowest drawn tile${side.tiles ? `: drawn ${side.tiles.join(" ")}` : ""})` }));
      else if (side.substituted) tiles.append(el("span", { class: "sub", text: "(a hidden substitute)" }));
      const mods = el("div", { class: "battle-mods" });
      for (const m of side.modifiers || []) mods.append(el("span", { class: "mod", text: `${m.value >= 0 ? "+" : ""}${m.value} ${nice(m.source)}` }));
      if (!(side.modifiers || []).length) mods.append(el("span", { class: "mod muted", text: "no modifiers" }));
      const counted = side.counted ? side.counted.reduce((a, x) => a + x, 0) : null;
      const sum = side.total !== null && side.total !== undefined
        ? el("div", { class: "battle-sum" }, el("strong", { class: "total", text: `${side.counted.join(" + ")} ${side.modifier >= 0 ? "+" : "−"} ${Math.abs(side.modifier)} = ${side.total}` }))
        : counted !== null ? el("div", { class: "battle-sum muted" }, `so far: ${side.counted.join(" + ")} ${side.modifier >= 0 ? "+" : "−"} ${Math.abs(side.modifier)} = ${counted + side.modifier}`) : null;
      // one compact row per side: who, tiles, total; the modifiers below (both sides fit)
      tiles.prepend(el("span", { class: "swatch", style: `background:${colour(side.seat)}` }),
        el("strong", { text: `${i === 0 ? "Attacker" : "Defender"} ${seatName(side.seat)}` }),
        el("span", { class: "muted small", text: ` ${side.units_at_start} unit${side.units_at_start === 1 ? "" : "s"}` }));
      box.append(el("div", { class: "battle-side" }, tiles), mods, ...(sum ? [sum] : []));
    });
    if (!finished) box.append(el("div", { class: "muted small", text: `The best ${top} tiles count, plus the modifiers of the units in the area; the higher total wins.` }));
    if (b.winner !== null && b.winner !== undefined) box.append(el("div", { class: "winner", text: `${seatName(b.winner)} wins the fight` }));
  }

  // The area under the mouse: its units by player, village, citadel and borders.
  let hovered = null;
  ctx.board.addEventListener("mouseover", (ev) => {
    const id = ev.target?.dataset?.area;
    if (id !== undefined && id !== hovered) { hovered = id; drawAreaInfo(); }
  });

  function drawAreaInfo() {
    if (!view || hovered === null) return;
    const box = clear(ctx.areaInfo);
    box.hidden = false;
    const a = areas.get(hovered);
    box.append(el("h3", { text: `Area ${hovered} · ${a?.terrain ?? ""}` }));
    const entry = obs().areas.find((x) => String(x.id) === hovered);
    for (const [s, units] of Object.entries(entry?.units || {})) {
      box.append(el("div", {}, el("span", { class: "swatch", style: `background:${colour(Number(s))}` }), el("strong", { text: ` ${seatName(Number(s))}: ` }), unitList(units)));
    }
    if (entry?.village) box.append(el("div", { text: `${entry.village.count} village(s) of ${seatName(entry.village.seat)}` }));
    if (!entry) box.append(el("div", { class: "muted", text: "empty" }));
    const owner = obs().players.find((p) => String(p.citadel_area) === hovered);
    if (owner) box.append(el("div", { text: `Citadel of ${seatName(owner.seat)}` }));
    box.append(el("div", { class: "muted small", text: `borders ${a?.adjacent.join(", ")}` }));
  }

  // Irreversible and weighty: starting a battle asks first, and Done in the action phase (it
  // ends the turn; table.js asks when other moves are open). Done of the other phases never asks.
  function confirm(text, v) {
    if (text === "done" && v.observation.phase !== "main_actions") return false; // a phase step, not the turn
    const m = /^battle (\S+) (\d+)$/.exec(text);
    if (!m) return null;
    return `Attack ${seatName(Number(m[2]))} in area ${m[1]}? A battle cannot be taken back.`;
  }

  return { look, render, prompt, confirm };
}
