// The lobby: create a table (game, parameters from the game's JSON schema, seats), list tables
// live over the lobby websocket, and resume the seats this browser holds.
//
// Everything on this page is worded for players: labels come from the schema's titles (or a
// humanised name), descriptions lose rule codes and ids, and seats are numbered from 1 (the CLI
// numbers them the same way; only the JSON API uses 0-based seat indices).
import { api, clear, el, hostToken, loadSeats, rememberHost, rememberSeat, seatLink, toast, wsUrl } from "/static/common.js";
import "/static/learn.js"; // the "Learn to play" card (one button per game with a tutorial)

let games = [];
let lastTables = [];
const $ = (id) => document.getElementById(id);

/** The schema marks parameters naming a designer's data file; the server refuses them all. */
const FILE_MARK = "x-bloodforge-file";

async function start() {
  try {
    games = await api("GET", "/api/games");
  } catch (err) {
    toast(`Could not load the games: ${err.message}`);
    return;
  }
  const gameSel = $("game");
  for (const g of games) gameSel.append(el("option", { value: g.id, text: g.name }));
  gameSel.addEventListener("change", onGameChange);
  $("players").addEventListener("change", renderSeats);
  $("create-form").addEventListener("submit", onCreate);
  onGameChange();
  renderMine();
  connectLobby();
}

function currentGame() {
  return games.find((g) => g.id === $("game").value) || games[0];
}

function paramProps(g) {
  return (g.parameters && g.parameters.properties) || {};
}

/** The game's own default number of players (its schema's), else its smallest table. */
export function defaultPlayers(g) {
  const d = paramProps(g).players?.default;
  return Number.isInteger(d) && d >= g.min_players && d <= g.max_players ? d : g.min_players;
}

function onGameChange() {
  const g = currentGame();
  clear($("game-summary")).append(playerText(g.summary), " ",
    el("a", { href: `/rules/${encodeURIComponent(g.id)}`, target: "_blank", rel: "noopener", text: "Rules" }));
  const players = clear($("players"));
  for (let n = g.min_players; n <= g.max_players; n++) players.append(el("option", { value: n, text: n === 1 ? "1 (solo)" : n }));
  players.value = String(defaultPlayers(g));
  renderParams(g);
  renderSeats();
  clearErrors();
}

// ---- words for players --------------------------------------------------------------------

/** "max_rounds" -> "Max rounds"; short all-letter ids ("ffa") read as abbreviations ("FFA");
 * letters and digits are parted ("map1" -> "Map 1"). */
export function humanise(id) {
  const s = String(id ?? "");
  if (/^[a-z]{2,3}$/.test(s)) return s.toUpperCase();
  const words = s.replace(/[_-]+/g, " ").replace(/([a-z])(\d)/gi, "$1 $2").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A schema description as a player reads it: no rule codes ("(R-MODE-1)", "L229", "A38"),
 * no references to developer documents, no quoted ids, no code, no "null". */
export function playerText(text, schema) {
  let s = String(text ?? "");
  const values = enumValues(schema);
  s = s.replace(/`(\w+)[^`]*`/g, "a $1");
  s = s.replace(/'([A-Za-z0-9_]+)'/g, (_m, v) => (values.includes(v) ? enumLabel(schema, v) : v.includes("_") ? humanise(v) : `‘${v}’`));
  s = s.replace(/\bfalse\b/g, "off").replace(/\btrue\b/g, "on");
  const code = String.raw`(?:R(?:-[A-Z]+)+-\d+(?:\.\.\d+)?|[LA]\d+(?:[-–]\d+)?)`;
  s = s.replace(new RegExp(String.raw`\s*\((?:see Rulings|${code}(?:[,;]?\s*${code})*)\)`, "g"), "");
  s = s.replace(new RegExp(String.raw`,?\s*\b${code}\b`, "g"), "");
  s = s.replace(/\s*\(see Rulings\)/gi, "").replace(/\bsee Rulings\b/gi, "see the rules");
  s = s.replace(/\bnull\b/g, "none").replace(/\bid\b/g, "name");
  s = s.replace(/\(\s*[;,]?\s*/g, "(").replace(/\s*[;,]\s*\)/g, ")").replace(/\(\s*\)/g, "");
  s = s.replace(/\b([a-z]+(?:_[a-z0-9]+)+)\b/g, (_m, w) => humanise(w).toLowerCase());
  s = s.replace(/\s+([.,;:])/g, "$1").replace(/\s{2,}/g, " ").trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function enumValues(schema) {
  if (!schema) return [];
  if (Array.isArray(schema.enum)) return schema.enum.filter((v) => v !== null).map(String);
  for (const alt of schema.anyOf || []) if (Array.isArray(alt.enum)) return alt.enum.map(String);
  return [];
}

function enumLabel(schema, value) {
  const labels = (schema && schema["x-bloodforge-labels"]) || {};
  return labels[value] || humanise(value);
}

function schemaTypes(schema) {
  if (schema.type) return [schema.type];
  return (schema.anyOf || []).map((s) => s.type).filter(Boolean);
}

function nullable(schema) {
  return schemaTypes(schema).includes("null");
}

/** What an empty field means: the schema's default, in words. */
function defaultText(schema) {
  const d = schema.default;
  if (d === undefined) return "";
  if (d === null) return "default";
  if (Array.isArray(d)) return d.length ? d.map(humanise).join(", ") : "none";
  if (typeof d === "boolean") return d ? "on" : "off";
  if (typeof d === "string") return enumValues(schema).includes(d) ? enumLabel(schema, d) : humanise(d);
  return String(d);
}

// ---- the game's parameters ----------------------------------------------------------------

// One input per parameter the server accepts, from its JSON schema: booleans as checkboxes,
// choices as menus, numbers as number fields, lists as comma-separated text. Every field starts
// at the schema's default and the lobby sends only what the player changed, so a table created
// without touching anything is exactly the game's default setup.
function renderParams(g) {
  const box = clear($("params"));
  for (const [name, schema] of Object.entries(paramProps(g))) {
    if (name === "players" || schema[FILE_MARK]) continue;
    const types = schemaTypes(schema);
    const label = schema.title || humanise(name);
    const help = playerText(schema.description || "", schema);
    const errorNote = el("span", { class: "field-error", dataset: { errorFor: `param-${name}` } });
    const helpNode = el("span", { class: "muted small param-help", text: help });
    let input;
    if (types.includes("boolean")) {
      input = el("input", { type: "checkbox", id: `param-${name}`, dataset: { param: name, kind: "boolean" } });
      input.checked = schema.default === true;
      box.append(el("div", { class: "param param-check" },
        el("label", { class: "check", for: `param-${name}` }, input, ` ${label}`), helpNode, errorNote));
      continue;
    }
    const values = enumValues(schema);
    if (values.length) {
      input = el("select", { id: `param-${name}`, dataset: { param: name, kind: "choice" } },
        nullable(schema) ? el("option", { value: "", text: "default" }) : null,
        ...values.map((v) => el("option", { value: v, text: enumLabel(schema, v) })));
      input.value = schema.default === null || schema.default === undefined ? (nullable(schema) ? "" : values[0]) : String(schema.default);
      input.dataset.initial = input.value;
    } else if (types.includes("integer") || types.includes("number")) {
      input = el("input", { type: "number", id: `param-${name}`, dataset: { param: name, kind: "number" }, placeholder: defaultText(schema) || "default" });
      // no min/max here: the server's refusal, written under the field, is the one message
    } else if (types.includes("array")) {
      input = el("input", { type: "text", id: `param-${name}`, dataset: { param: name, kind: "list" }, placeholder: defaultText(schema) || "default" });
      helpNode.textContent = `${help}${help ? " " : ""}(A list: separate with commas.)`;
    } else {
      input = el("input", { type: "text", id: `param-${name}`, dataset: { param: name, kind: nullable(schema) ? "nullable" : "text" }, placeholder: defaultText(schema) || "default" });
    }
    box.append(el("div", { class: "param" }, el("label", { for: `param-${name}`, text: label }), input, helpNode, errorNote));
  }
}

/** `players` and every parameter the player changed; nothing of the lobby's own. */
function collectParams() {
  const params = { players: Number($("players").value) };
  for (const input of document.querySelectorAll("[data-param]")) {
    const name = input.dataset.param;
    const kind = input.dataset.kind;
    const schema = paramProps(currentGame())[name] || {};
    if (kind === "boolean") { if (input.checked !== (schema.default === true)) params[name] = input.checked; continue; }
    if (kind === "choice") { if (input.value !== input.dataset.initial) params[name] = input.value === "" ? null : input.value; continue; }
    const raw = input.value.trim();
    if (!raw) continue;
    if (kind === "number") params[name] = Number(raw);
    else if (kind === "list") params[name] = raw.split(",").map((s) => s.trim()).filter(Boolean);
    else if (kind === "nullable" && /^(none|no|-)$/i.test(raw)) params[name] = null;
    else params[name] = raw;
  }
  return params;
}

// ---- seats --------------------------------------------------------------------------------

// What each seat plays (the Soldiers, the Witch, a realm), when the game fixes it.
let rolesSeq = 0;
async function showRoles(g, n) {
  const seq = ++rolesSeq;
  let roles = [];
  try { roles = (await api("GET", `/api/games/${encodeURIComponent(g.id)}/seats?players=${n}`)).seats; } catch { roles = []; }
  if (seq !== rolesSeq) return;
  for (const r of roles) {
    const node = document.querySelector(`.seat-row[data-seat="${r.seat}"] .seat-role`);
    if (!node || !r.role) continue;
    node.textContent = `plays ${r.role}`;
    if (r.colour) node.style.borderLeft = `0.6em solid ${r.colour}`;
  }
}

const AGENT_NAMES = { greedy: "AI", mcts: "AI (search)", random: "AI (random moves)" };
const agentName = (a) => AGENT_NAMES[a] || `AI (${humanise(a)})`;

// ---- what a level is worth: Elo measured in the lab (GET /api/games, `levels`) -------------

/** The game's measured levels if they were measured at this table size (an Elo from two-player
 * games says nothing about a four-player table), else null. */
export function levelsFor(g, players) {
  const lv = g && g.levels;
  return lv && lv.players === players ? lv : null;
}

/** One level of one AI on the game's scale, or null: only levels the lab measured or that lie
 * between two measured ones have an Elo; the others show none. */
export function levelEntry(g, agent, level, players) {
  const lv = levelsFor(g, players);
  return (lv && (lv.agents[agent] || []).find((e) => e.level === level)) || null;
}

/** "Level 7 · Elo ~640"; "(estimated)" for a level between two measured ones; "Level 7" alone
 * where nothing was measured. */
export function levelText(entry, level) {
  if (!entry) return `Level ${level}`;
  return `Level ${level} · Elo ~${entry.elo}${entry.measured ? "" : " (estimated)"}`;
}

const ELO_MEANING = "Elo compares the AI levels of this game on one scale: 0 is a player who moves at random, "
  + "and 400 points more means winning about 10 games in 11 against it.";

/** The sentence beside a seat's level: the interval and how the number was found. */
export function levelNote(g, agent, level, players) {
  const lv = levelsFor(g, players);
  if (!lv) return { text: "", title: "" };
  const how = `Measured by the lab on ${lv.date} in ${lv.players}-player games.`;
  if (agent === "random") return { text: "Elo 0 (moves at random)", title: `${ELO_MEANING} ${how}` };
  const e = levelEntry(g, agent, level, players);
  if (!e) return { text: "", title: "" };
  const range = `likely between ${e.low} and ${e.high}`;
  const pooled = e.pooled_with || [];
  // levels the games could not tell apart share one Elo: say so, or the equal numbers read as a bug
  const alike = pooled.length ? `; the lab could not tell it from level ${pooled.join(" or ")}` : "";
  const text = e.measured ? `Elo ~${e.elo}, ${range} (${e.games} games${alike})`
    : `Elo ~${e.elo}, ${range} (estimated from the levels around it)`;
  return { text, title: `${ELO_MEANING} ${how}` };
}

function renderSeats() {
  const g = currentGame();
  const n = Number($("players").value);
  const box = clear($("seats"));
  // the players' AIs only: research agents (OpenSpiel's IS-MCTS, the lab's yardstick) stay API-only
  const agents = g.agents.filter((a) => a in AGENT_NAMES);
  for (let i = 0; i < n; i++) {
    const no = i + 1;
    const kind = el("select", { class: "seat-kind", "aria-label": `Seat ${no} player` },
      el("option", { value: "human", text: "Human" }),
      ...agents.map((a) => el("option", { value: `agent:${a}`, text: agentName(a) })));
    kind.value = i === 0 ? "human" : (agents.includes("greedy") ? "agent:greedy" : `agent:${agents[0]}`);
    const strength = el("select", { class: "seat-strength", "aria-label": `Seat ${no} strength` },
      ...Array.from({ length: 10 }, (_, k) => el("option", { value: k + 1, text: `Level ${k + 1}` })));
    strength.value = "10";
    const elo = el("span", { class: "seat-elo muted small" });
    // the levels' words follow the chosen AI: each AI has its own Elo per level
    const showLevels = () => {
      const agent = kind.value.startsWith("agent:") ? kind.value.slice(6) : "";
      for (const opt of strength.options) {
        const level = Number(opt.value);
        opt.textContent = levelText(levelEntry(g, agent, level, n), level);
      }
      const note = levelNote(g, agent, Number(strength.value), n);
      elo.textContent = kind.value === "human" ? "" : note.text;
      elo.title = note.title;
      strength.title = note.title;
      elo.hidden = !elo.textContent;
    };
    strength.addEventListener("change", showLevels);
    const name = el("input", { class: "seat-name", maxlength: 40, "aria-label": `Seat ${no} name`, placeholder: i === 0 ? "Your name" : `Player ${no}` });
    const remembered = localStorage.getItem("bloodforge.name") || "";
    // The remembered name is a person's: only the first human seat gets it, never an AI seat.
    const sync = () => {
      const human = kind.value === "human";
      strength.hidden = human;
      if (!human && name.value === remembered) name.value = "";
      if (human && i === 0 && !name.value) name.value = remembered;
      name.placeholder = human ? (i === 0 ? "Your name" : `Player ${no}`) : "AI (name optional)";
      showLevels();
    };
    kind.addEventListener("change", sync);
    sync();
    box.append(el("div", { class: "seat-row", dataset: { seat: String(i) } }, el("span", { class: "seat-no", text: `Seat ${no}` }), name, kind, strength, elo,
      el("span", { class: "seat-role" }),
      el("span", { class: "field-error", dataset: { errorFor: `seat-${i}` } })));
  }
  showRoles(g, n);
}

// ---- creating -----------------------------------------------------------------------------

/** POST with the refusal's `details` kept (they name the field a refusal is about). */
async function post(path, body) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const e = (data && data.error) || {};
    const err = new Error(e.message || `the server answered ${res.status}`);
    err.code = e.code || `http/${res.status}`;
    err.details = e.details || {};
    throw err;
  }
  return data;
}

async function onCreate(ev) {
  ev.preventDefault();
  const button = $("create-button");
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => {
    const kind = row.querySelector(".seat-kind").value;
    const name = row.querySelector(".seat-name").value;
    if (kind === "human") return { name, kind: "human" };
    return { name, kind: "agent", agent: kind.slice(6), strength: Number(row.querySelector(".seat-strength").value) };
  });
  const body = { game: currentGame().id, name: $("table-name").value, params: collectParams(), seats };
  const clock = $("turn-clock").value;
  if (clock) body.turn_clock = Number(clock);
  if ($("hints")?.checked) body.hints = true;
  const seed = $("seed").value.trim();
  if (seed) body.seed = Number(seed);
  const file = $("scenario").files[0];
  // a scenario names its game, parameters and seed itself
  if (file) { body.scenario = await file.text(); body.scenario_name = file.name; delete body.params; delete body.game; }
  if (seats[0].name && seats[0].kind === "human") localStorage.setItem("bloodforge.name", seats[0].name);
  clearErrors();
  button.disabled = true;
  try {
    const created = await post("/api/tables", body);
    // Links are claim-once: the first browser to open one takes the seat. Only the first human
    // seat (the creator's) goes to Your seats; the others are invitations to send.
    const mine = created.links[0];
    if (mine) rememberSeat(created.table.id, mine.seat, mine.token, `${created.table.name} — ${mine.name} (seat ${mine.seat + 1})`);
    if (created.host_token) rememberHost(created.table.id, created.host_token);
    if (created.links.length === 1) {
      location.href = seatLink(created.table.id, created.links[0].seat, created.links[0].token);
      return;
    }
    showCreated(created);
    renderMine();
  } catch (err) {
    showError(err);
  } finally {
    button.disabled = false;
  }
}

/** The field a refusal is about: `details.field` from the server ("params.max_rounds",
 * "seats.1", "seed", "turn_clock", "scenario", "players"), else read from the message. */
export function errorField(code, message, details) {
  const field = details && details.field;
  if (field) return String(field);
  const m = String(message || "");
  if (code === "params/invalid") {
    const names = Object.keys(paramProps(currentGame()));
    const named = m.match(/^parameters of '[^']*': ([A-Za-z0-9_]+):/);
    if (named && names.includes(named[1])) return named[1] === "players" ? "players" : `params.${named[1]}`;
    // a whole word only: `map` must not match `map_file` (\b counts `_` as a letter)
    // "players" is also an ordinary word ("marked for 5-6 players"): the last resort
    const words = names.filter((n) => new RegExp(`\\b${n}\\b`).test(m));
    const found = words.find((n) => n !== "players") || words[0];
    if (found) return found === "players" ? "players" : `params.${found}`;
    return "params";
  }
  if (code === "scenario/invalid" || code === "scenario/too_large") return "scenario";
  if (code === "game/unknown" || code === "game/missing") return "game";
  if (code === "seats/invalid" || code === "agent/unknown" || code === "request/invalid") {
    const seat = m.match(/seats\.(\d+)/) || m.match(/\bseat (\d+)\b/);
    if (seat) return `seats.${code === "request/invalid" ? seat[1] : Number(seat[1]) - 1}`;
    if (code !== "request/invalid") return "seats";
    for (const f of ["turn_clock", "seed", "name", "scenario"]) if (new RegExp(`body\\.${f}\\b`).test(m)) return f;
  }
  return "";
}

function fieldNode(field) {
  if (!field) return null;
  if (field.startsWith("params.")) return document.getElementById(`param-${field.slice(7)}`) || $("params");
  if (field.startsWith("seats.")) return document.querySelector(`.seat-row[data-seat="${field.slice(6)}"]`) || $("seats");
  return { params: $("params"), seats: $("seats"), scenario: $("scenario"), game: $("game"), players: $("players"),
    seed: $("seed"), turn_clock: $("turn-clock"), name: $("table-name") }[field] || null;
}

/** A refusal as a player reads it: parameter names become their labels, no rule codes. */
export function errorText(message) {
  const props = paramProps(currentGame());
  let s = String(message || "").replace(/^parameters of '[^']*': /, "").replace(/^\(root\): /, "");
  s = s.replace(/^Value error, /, "").replace(/\bValue error, /g, "");
  for (const [name, schema] of Object.entries(props)) {
    const label = schema.title || humanise(name);
    s = s.replace(new RegExp(`\\b${name}=(\\w+)`, "g"), (_m, v) => (v === "true" ? `“${label}” on` : v === "false" ? `“${label}” off` : `“${label}” ${humanise(v)}`));
    s = s.replace(new RegExp(`'${name}'|(^|; )${name}(?=:)`, "g"), (m, pre) => `${pre && !m.startsWith("'") ? pre : ""}${label}`);
  }
  s = s.replace(/\bbody\.[\w.]+:\s*/g, "");
  return playerText(s);
}

function clearErrors() {
  for (const node of document.querySelectorAll(".field-error.generated")) node.remove();
  for (const node of document.querySelectorAll(".input-error")) node.classList.remove("input-error");
  for (const node of document.querySelectorAll("[data-error-for]")) node.textContent = "";
  $("form-error").textContent = "";
}

function showError(err) {
  const text = errorText(err.message);
  const field = errorField(err.code, err.message, err.details);
  const node = fieldNode(field);
  $("form-error").textContent = `Could not create the table: ${text}`;
  if (!node) return;
  if (node.closest("details")) node.closest("details").open = true;
  node.classList.add("input-error");
  const slot = field.startsWith("params.") ? document.querySelector(`[data-error-for="param-${field.slice(7)}"]`)
    : field.startsWith("seats.") ? node.querySelector(".field-error") : null;
  if (slot) slot.textContent = text;
  else (node.closest("label") || node).after(el("div", { class: "field-error generated", dataset: { field }, text }));
  if (node.focus) node.focus();
}


function showCreated(created) {
  const box = clear($("created"));
  box.hidden = false;
  box.append(el("h3", { text: `Table “${created.table.name}” is ready` }),
    el("p", { class: "muted", text: "Send each player their own link: the first browser to open a link takes that seat, "
      + "so open only your own here (or every seat, to play them all at this computer)." }));
  const list = el("ul", { class: "links" });
  created.links.forEach((link, i) => {
    const url = new URL(seatLink(created.table.id, link.seat, link.token), location.href).href;
    const input = el("input", { readonly: true, value: url, class: "link-input", "aria-label": `Link for seat ${link.seat + 1}` });
    list.append(el("li", { dataset: { seat: String(link.seat) } },
      el("strong", { text: `Seat ${link.seat + 1} — ${link.name}${i === 0 ? " (you)" : ""}` }), input,
      el("button", { type: "button", onclick: () => { input.select(); navigator.clipboard?.writeText(url); toast("Link copied", "info"); }, text: "Copy" }),
      el("a", { class: "button", href: url, text: i === 0 ? "Play" : "Play here" })));
  });
  list.append(el("li", {}, el("strong", { text: "Spectators" }),
    el("a", { href: created.spectator_url, text: new URL(created.spectator_url, location.href).href })));
  box.append(list);
}

// ---- table list and "Your seats" ----------------------------------------------------------

/** A human seat whose link nobody has opened yet (servers that say so: `claimed`). */
const isOpen = (s) => s.kind === "human" && s.claimed === false;

function seatWords(s) {
  if (s.kind === "agent") return s.taken_over ? `${s.name} (AI took over)` : (/\bAI\b/.test(s.name) ? s.name : `${s.name} (AI)`);
  return isOpen(s) ? `${s.name} (open seat)` : s.name;
}

function names(list) {
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** "Anna to play", "Anna and Bob to play", "Anna won", "a draw". */
export function turnText(t) {
  if (t.status === "over") {
    const won = t.result?.winners || [];
    // every seat "winning" is how a shared result (a draw) is recorded
    if (!won.length || (won.length > 1 && won.length === t.seats.length)) return "a draw";
    return `${names(won.map((w) => t.seats[w]?.name).filter(Boolean))} won`;
  }
  const actors = (t.actors && t.actors.length ? t.actors : (t.to_move === null || t.to_move === undefined ? [] : [t.to_move]));
  const who = actors.map((a) => t.seats[a]?.name).filter(Boolean);
  return who.length ? `${names(who)} to play` : "the game moves";
}

function countsText(t) {
  const open = t.seats.filter(isOpen).length;
  const humans = t.seats.filter((s) => s.kind === "human").length - open;
  const ai = t.seats.length - humans - open;
  const parts = [];
  if (humans) parts.push(`${humans} ${humans === 1 ? "person" : "people"}`);
  if (ai) parts.push(`${ai} AI`);
  if (open) parts.push(`${open} open`);
  return parts.join(", ");
}

function ago(iso) {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  const s = Math.max(0, Math.round((Date.now() - t) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}

/** The table's name without the game's name in front (the game is shown beside it). */
function shortName(t) {
  const prefix = `${t.game_name} · `;
  return t.name.startsWith(prefix) && t.name.length > prefix.length ? t.name.slice(prefix.length) : t.name;
}

function renderTables(tables) {
  lastTables = tables;
  const list = clear($("tables"));
  if (!tables.length) { list.append(el("li", { class: "muted", text: "No tables yet — create one above." })); return; }
  for (const t of tables) {
    const over = t.status === "over";
    list.append(el("li", { class: `table-item ${over ? "is-over" : "is-playing"}`, dataset: { table: t.id } },
      el("div", { class: "table-head" },
        el("span", { class: "game-tag", text: t.game_name }),
        el("span", { class: "table-name", text: shortName(t) })),
      el("div", { class: "table-seats" },
        el("span", { class: "seat-count muted", text: countsText(t) }),
        el("span", { class: "seat-names", text: t.seats.map(seatWords).join(" · ") })),
      el("div", { class: "table-state" },
        el("span", { class: `status ${over ? "over" : "playing"}`, text: over ? "finished" : "playing" }),
        el("span", { class: "turn", text: turnText(t) }),
        el("span", { class: "muted small", text: `move ${t.ply} · ${ago(t.updated_at)}` })),
      el("div", { class: "table-links" },
        el("a", { href: `/table/${encodeURIComponent(t.id)}`, text: over ? "View" : "Watch" }),
        el("a", { href: `/table/${encodeURIComponent(t.id)}/replay`, text: "Replay" }))));
  }
  renderMine();
}

/** Your turn / waiting for someone / finished (won or lost) for one of your seats. */
export function mineStatus(t, seat) {
  if (!t) return { kind: "unknown", text: "" };
  if (t.status === "over") {
    const result = turnText(t);
    const won = result !== "a draw" && (t.result?.winners || []).includes(seat);
    return { kind: "over", text: `finished — ${won ? "you won" : result}` };
  }
  const actors = t.actors && t.actors.length ? t.actors : (t.to_move === null || t.to_move === undefined ? [] : [t.to_move]);
  if (actors.includes(seat)) return { kind: "turn", text: "your turn" };
  const who = actors.map((a) => t.seats[a]?.name).filter(Boolean);
  return { kind: "waiting", text: who.length ? `waiting for ${names(who)}` : "waiting" };
}

const fetched = new Map();
function tableFor(id) {
  const t = lastTables.find((x) => x.id === id);
  if (t) return t;
  if (!fetched.has(id)) {
    fetched.set(id, null);
    api("GET", `/api/tables/${encodeURIComponent(id)}`).then((rec) => { fetched.set(id, rec); renderMine(); }).catch(() => {});
  }
  return fetched.get(id) || null;
}

function renderMine() {
  const seats = loadSeats();
  const keys = Object.keys(seats).sort((a, b) => seats[b].at - seats[a].at).slice(0, 12);
  $("mine-card").hidden = keys.length === 0;
  const list = clear($("mine"));
  for (const key of keys) {
    const s = seats[key];
    const tableId = s.table ?? key;
    const status = mineStatus(tableFor(tableId), s.seat);
    list.append(el("li", { class: `mine-item mine-${status.kind}`, dataset: { table: tableId } },
      el("a", { href: seatLink(tableId, s.seat, s.token), dataset: { seat: String(s.seat) }, text: s.label || "Your table" }),
      status.text ? el("span", { class: `mine-status ${status.kind}`, text: status.text }) : null,
      invitePanel(tableId, s.seat)));
  }
}

// ---- new links for the seats of a table you created ----------------------------------------

const inviteOpen = new Set();
const newLinks = new Map();  // "<table>#<seat>" -> the new link, shown until the page reloads


/** For a table this browser created: a new link per other human seat (a friend lost theirs,
 * or someone else opened it first). The panel survives the list's live re-renders. */
function invitePanel(tableId, mySeat) {
  const t = tableFor(tableId);
  const host = hostToken(tableId);
  if (!host || !t || t.status === "over") return null;
  const others = t.seats.filter((x) => x.kind === "human" && x.seat !== mySeat);
  if (!others.length) return null;
  const details = el("details", { class: "invite", open: inviteOpen.has(tableId) },
    el("summary", { text: "Links for the other seats" }));
  details.addEventListener("toggle", () => { if (details.open) inviteOpen.add(tableId); else inviteOpen.delete(tableId); });
  for (const x of others) {
    const url = newLinks.get(`${tableId}#${x.seat}`);
    details.append(el("div", { class: "invite-row", dataset: { seat: String(x.seat) } },
      el("span", { text: `Seat ${x.seat + 1} — ${x.name}${x.claimed ? " (link opened)" : " (open seat)"}` }),
      el("button", { type: "button", text: "New link", onclick: () => reinvite(tableId, x.seat, host) }),
      url ? el("input", { readonly: true, value: url, class: "link-input", "aria-label": `New link for seat ${x.seat + 1}` }) : null,
      url ? el("button", { type: "button", text: "Copy", onclick: () => { navigator.clipboard?.writeText(url); toast("Link copied", "info"); } }) : null));
  }
  details.append(el("p", { class: "muted small", text: "A new link replaces the seat's old one: whoever holds the seat now is out until they open the new link." }));
  return details;
}

async function reinvite(tableId, seat, host) {
  try {
    const r = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/invite`, undefined, host);
    newLinks.set(`${tableId}#${seat}`, new URL(r.url, location.href).href);
    inviteOpen.add(tableId);
    renderMine();
    toast(`New link for seat ${seat + 1} made: send it to its player`, "info");
  } catch (err) {
    toast(`Could not make a new link: ${err.message}`);
  }
}

/** The list after a `lobby_delta`: changed tables replaced or added, removed ones dropped,
 * most recently moved first (the server's order). */
export function mergeDelta(tables, changed, removed) {
  const byId = new Map(tables.map((t) => [t.id, t]));
  for (const id of removed) byId.delete(id);
  for (const t of changed) byId.set(t.id, t);
  return [...byId.values()].sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at));
}

function connectLobby(delay = 500) {
  // deltas: after the first full list the server sends only the tables that changed
  const ws = new WebSocket(wsUrl("/ws/lobby?deltas=1"));
  ws.onopen = () => { $("lobby-status").textContent = "live"; delay = 500; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "lobby") renderTables(msg.tables);
    else if (msg.type === "lobby_delta") renderTables(mergeDelta(lastTables, msg.tables || [], msg.removed || []));
  };
  ws.onclose = () => {
    $("lobby-status").textContent = "reconnecting…";
    setTimeout(() => connectLobby(Math.min(delay * 2, 10000)), delay);
  };
}

start();
