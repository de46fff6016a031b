// The lobby: create a table (game, parameters from the game's JSON schema, seats), list tables
// live over the lobby websocket, and resume the seats this browser holds.
import { api, clear, el, loadSeats, rememberSeat, seatLink, toast, wsUrl } from "/static/common.js";

let games = [];
const $ = (id) => document.getElementById(id);

async function start() {
  try {
    games = await api("GET", "/api/games");
  } catch (err) {
    toast(`Could not load games: ${err.message}`);
    return;
  }
  const gameSel = $("game");
  for (const g of games) gameSel.append(el("option", { value: g.id, text: `${g.name}` }));
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

function onGameChange() {
  const g = currentGame();
  clear($("game-summary")).append(g.summary, " ", el("a", { href: `/rules/${encodeURIComponent(g.id)}`, target: "_blank", rel: "noopener", text: "Rules" }));
  const players = clear($("players"));
  for (let n = g.min_players; n <= g.max_players; n++) players.append(el("option", { value: n, text: n }));
  players.value = String(g.min_players);
  renderParams(g);
  renderSeats();
}

// One input per game parameter, from its JSON schema: booleans as checkboxes, numbers as number
// fields, lists as comma-separated text. Parameters naming server files are not offered.
function renderParams(g) {
  const box = clear($("params"));
  const props = (g.parameters && g.parameters.properties) || {};
  for (const [name, schema] of Object.entries(props)) {
    if (name === "players" || name.endsWith("_data")) continue;
    const types = schemaTypes(schema);
    const label = schema.title || name;
    const help = schema.description || "";
    let input;
    if (types.includes("boolean")) {
      input = el("input", { type: "checkbox", dataset: { param: name, kind: "boolean" } });
      input.checked = schema.default === true;
      box.append(el("label", { class: "check", title: help }, input, ` ${label}`, el("span", { class: "muted small", text: ` — ${help}` })));
      continue;
    }
    if (types.includes("integer") || types.includes("number")) {
      input = el("input", { type: "number", dataset: { param: name, kind: "number" }, placeholder: schema.default ?? "" });
    } else if (types.includes("array")) {
      input = el("input", { type: "text", dataset: { param: name, kind: "list" }, placeholder: "comma-separated; empty: default" });
    } else {
      input = el("input", { type: "text", dataset: { param: name, kind: "text" }, placeholder: schema.default ?? "default" });
    }
    box.append(el("label", { class: "param", title: help }, el("span", { text: label }), input, el("span", { class: "muted small", text: help })));
  }
}

function schemaTypes(schema) {
  if (schema.type) return [schema.type];
  return (schema.anyOf || []).map((s) => s.type).filter(Boolean);
}

// What each seat plays (the Soldiers, the Witch, a realm), when the game fixes it.
let rolesSeq = 0;
async function showRoles(g, n) {
  const seq = ++rolesSeq;
  let roles = [];
  try { roles = (await api("GET", `/api/games/${encodeURIComponent(g.id)}/seats?players=${n}`)).seats; } catch { roles = []; }
  if (seq !== rolesSeq) return;
  for (const r of roles) {
    const node = document.querySelector(`.seat-row[data-seat="${r.seat}"] .seat-role`);
    if (!node) continue;
    node.textContent = `plays ${r.role}`;
    if (r.colour) node.style.borderLeft = `0.6em solid ${r.colour}`;
  }
}

function renderSeats() {
  const g = currentGame();
  const n = Number($("players").value);
  const box = clear($("seats"));
  const agents = g.agents.filter((a) => a !== "heuristic");
  for (let i = 0; i < n; i++) {
    const kind = el("select", { class: "seat-kind", "aria-label": `seat ${i + 1} player` },
      el("option", { value: "human", text: "Human" }),
      ...agents.map((a) => el("option", { value: `agent:${a}`, text: `AI — ${a}` })));
    kind.value = i === 0 ? "human" : (agents.includes("greedy") ? "agent:greedy" : `agent:${agents[0]}`);
    const strength = el("select", { class: "seat-strength", "aria-label": `seat ${i + 1} strength` },
      ...Array.from({ length: 10 }, (_, k) => el("option", { value: k + 1, text: `strength ${k + 1}` })));
    strength.value = "10";
    const name = el("input", { class: "seat-name", maxlength: 40, "aria-label": `seat ${i + 1} name`, placeholder: i === 0 ? "Your name" : `Player ${i + 1}` });
    const remembered = localStorage.getItem("bloodforge.name") || "";
    // The remembered name is a person's: only the first human seat gets it, never an AI seat.
    const sync = () => {
      const human = kind.value === "human";
      strength.hidden = human;
      if (!human && name.value === remembered) name.value = "";
      if (human && i === 0 && !name.value) name.value = remembered;
      name.placeholder = human ? (i === 0 ? "Your name" : `Player ${i + 1}`) : "AI (name optional)";
    };
    kind.addEventListener("change", sync);
    sync();
    box.append(el("div", { class: "seat-row", dataset: { seat: String(i) } }, el("span", { class: "seat-no", text: `Seat ${i + 1}` }), name, kind, strength,
      el("span", { class: "seat-role" }),
      el("span", { class: "field-error", dataset: { errorFor: `seat-${i}` } })));
  }
  showRoles(g, n);
}

function collectParams() {
  const params = { players: Number($("players").value) };
  for (const input of document.querySelectorAll("[data-param]")) {
    const name = input.dataset.param;
    const kind = input.dataset.kind;
    if (kind === "boolean") { if (input.checked) params[name] = true; continue; }
    const raw = input.value.trim();
    if (!raw) continue;
    if (kind === "number") params[name] = Number(raw);
    else if (kind === "list") params[name] = raw.split(",").map((s) => s.trim()).filter(Boolean);
    else params[name] = raw;
  }
  return params;
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
  const seed = $("seed").value.trim();
  if (seed) body.seed = Number(seed);
  const file = $("scenario").files[0];
  // a scenario names its game, parameters and seed itself
  if (file) { body.scenario = await file.text(); body.scenario_name = file.name; delete body.params; delete body.game; }
  if (seats[0].name && seats[0].kind === "human") localStorage.setItem("bloodforge.name", seats[0].name);
  clearErrors();
  button.disabled = true;
  try {
    const created = await api("POST", "/api/tables", body);
    for (const link of created.links) rememberSeat(created.table.id, link.seat, link.token, `${created.table.name} — ${link.name} (seat ${link.seat + 1})`);
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

// A refusal is written beside the field it is about (the parameter, the seats, the scenario
// file, the seed or the clock), else under the button.
const ERROR_FIELD = {
  "params/invalid": () => paramField(), "scenario/invalid": () => $("scenario"), "scenario/too_large": () => $("scenario"),
  "seats/invalid": () => $("seats"), "agent/unknown": () => $("seats"), "game/unknown": () => $("game"),
};

function paramField(message) {
  for (const input of document.querySelectorAll("[data-param]")) {
    if ((message || "").includes(input.dataset.param)) return input;
  }
  return $("params");
}

function clearErrors() {
  for (const node of document.querySelectorAll(".field-error.generated")) node.remove();
  for (const node of document.querySelectorAll(".input-error")) node.classList.remove("input-error");
  $("form-error").textContent = "";
}

function showError(err) {
  let field = null;
  if (err.code === "params/invalid") field = paramField(err.message);
  else if (err.code === "request/invalid" && /turn_clock/.test(err.message)) field = $("turn-clock");
  else if (err.code === "request/invalid" && /seed/.test(err.message)) field = $("seed");
  else if (ERROR_FIELD[err.code]) field = ERROR_FIELD[err.code]();
  $("form-error").textContent = `Could not create the table: ${err.message}`;
  if (!field) return;
  if (field.closest("details")) field.closest("details").open = true;
  field.classList.add("input-error");
  const note = el("div", { class: "field-error generated", "aria-live": "assertive", text: err.message });
  (field.closest("label") || field).after(note);
  if (field.focus) field.focus();
}

function showCreated(created) {
  const box = clear($("created"));
  box.hidden = false;
  box.append(el("h3", { text: `Table “${created.table.name}” is ready` }),
    el("p", { class: "muted", text: "Send each player their own link: it is their seat's key. Keep yours." }));
  const list = el("ul", { class: "links" });
  for (const link of created.links) {
    const url = new URL(seatLink(created.table.id, link.seat, link.token), location.href).href;
    const input = el("input", { readonly: true, value: url, class: "link-input" });
    list.append(el("li", {},
      el("strong", { text: `Seat ${link.seat + 1} — ${link.name}` }), input,
      el("button", { type: "button", onclick: () => { input.select(); navigator.clipboard?.writeText(url); toast("Link copied", "info"); }, text: "Copy" }),
      el("a", { class: "button", href: url, text: "Open" })));
  }
  list.append(el("li", {}, el("strong", { text: "Spectators" }),
    el("a", { href: created.spectator_url, text: new URL(created.spectator_url, location.href).href })));
  box.append(list);
}

function renderMine() {
  const seats = loadSeats();
  const ids = Object.keys(seats).sort((a, b) => seats[b].at - seats[a].at).slice(0, 12);
  $("mine-card").hidden = ids.length === 0;
  const list = clear($("mine"));
  for (const id of ids) {
    const s = seats[id];
    const tableId = s.table ?? id;
    list.append(el("li", {}, el("a", { href: seatLink(tableId, s.seat, s.token), dataset: { seat: String(s.seat) }, text: s.label || tableId })));
  }
}

function renderTables(tables) {
  const list = clear($("tables"));
  if (!tables.length) { list.append(el("li", { class: "muted", text: "No tables yet — create one above." })); return; }
  for (const t of tables) {
    const seats = t.seats.map((s) => `${s.name}${s.kind === "agent" && !/\bAI\b/.test(s.name) ? " (AI)" : ""}`).join(", ");
    const status = t.status === "over" ? "finished" : `move ${t.ply}, ${t.seats[t.to_move]?.name ?? "?"} to play`;
    list.append(el("li", { class: "table-item" },
      el("span", { class: "game-tag", text: t.game_name }),
      el("span", { class: "table-name", text: t.name }),
      el("span", { class: "muted", text: seats }),
      el("span", { class: `status ${t.status}`, text: status }),
      el("span", { class: "spacer" }),
      el("a", { href: `/table/${encodeURIComponent(t.id)}`, text: "Watch" }),
      el("a", { href: `/table/${encodeURIComponent(t.id)}/replay`, text: "Replay" })));
  }
}

function connectLobby(delay = 500) {
  const ws = new WebSocket(wsUrl("/ws/lobby"));
  ws.onopen = () => { $("lobby-status").textContent = "live"; delay = 500; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "lobby") renderTables(msg.tables);
  };
  ws.onclose = () => {
    $("lobby-status").textContent = "reconnecting…";
    setTimeout(() => connectLobby(Math.min(delay * 2, 10000)), delay);
  };
}

start();
