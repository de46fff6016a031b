// A table page, live or replay. Generic over games: it keeps the websocket, the seat, the log,
// the action panel (every legal action as a button, grouped by verb and worded by the grammar's
// label templates: the fallback that always works) and the replay controls. The shared board
// (boards/board.js) draws static_info()["board"] and makes it clickable; the game's own view.js
// (served from games/<id>/web/) only gives the look and extra panels (docs/browser.md).
import { api, clear, el, rememberSeat, toast, wsUrl } from "/static/common.js";
import { grammarMap, label as fillLabel, parse } from "/static/boards/actions.js";
import { createBoard, hasBoard } from "/static/boards/board.js";

const $ = (id) => document.getElementById(id);

const path = location.pathname.split("/").filter(Boolean); // ["table", id] or ["table", id, "replay"]
const tableId = decodeURIComponent(path[1] || "");
const replayMode = path[2] === "replay";

// The seat and its secret come in the URL fragment (never sent to the server, so never logged).
// Old-style ?seat=&token= links are accepted and moved into the fragment.
function readSeat() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  let seat = hash.get("seat") ?? query.get("seat");
  let token = hash.get("token") ?? query.get("token");
  if (query.get("token")) {
    history.replaceState(null, "", `${location.pathname}#seat=${seat}&token=${encodeURIComponent(token)}`);
  }
  seat = seat === null || seat === "" ? null : Number(seat);
  return { seat: Number.isInteger(seat) ? seat : null, token: token || null };
}

const { seat, token } = readSeat();
const ctx = {
  tableId, seat, token, replayMode,
  table: null, staticInfo: null, grammar: [], module: null,
  view: null, busy: false, msgId: 0, ws: null, logLines: [],
};

async function start() {
  try {
    const [table, stat] = await Promise.all([
      api("GET", `/api/tables/${encodeURIComponent(tableId)}`),
      api("GET", `/api/tables/${encodeURIComponent(tableId)}/static`),
    ]);
    ctx.table = table;
    ctx.staticInfo = stat.static;
    ctx.grammar = stat.grammar;
    ctx.viewUrls = { js: stat.view, css: stat.view_css };
  } catch (err) {
    showBanner(`Cannot open this table: ${err.message}`, "error");
    return;
  }
  document.title = `${ctx.table.name} — bloodforge`;
  const named = ctx.table.name.startsWith(ctx.table.game_name);
  $("table-title").textContent = named ? ctx.table.name : `${ctx.table.name} · ${ctx.table.game_name}`;
  $("who").textContent = seat === null ? "spectating" : `you are ${ctx.table.seats[seat]?.name ?? `seat ${seat}`}`;
  if (seat !== null && token) rememberSeat(tableId, seat, token, `${ctx.table.name} — ${ctx.table.seats[seat]?.name} (seat ${seat + 1})`);
  const suffix = location.hash;
  const modeLink = $("mode-link");
  modeLink.textContent = replayMode ? "Back to the table" : "Replay";
  modeLink.href = replayMode ? `/table/${encodeURIComponent(tableId)}${suffix}` : `/table/${encodeURIComponent(tableId)}/replay${suffix}`;
  ctx.ui = await makeUi();
  setupAlerts();
  const rules = $("rules-link");
  if (rules) rules.href = `/rules/${encodeURIComponent(ctx.table.game)}`;
  document.addEventListener("keydown", onKey);
  if (replayMode) startReplay(); else connect();
}

// The page's view of the game: the shared board (when static_info has one) with the game's look,
// the game's extra panels, and generic fallbacks for everything a game leaves out.
async function makeUi() {
  let mod = null;
  if (ctx.viewUrls.css) document.head.append(el("link", { rel: "stylesheet", href: ctx.viewUrls.css }));
  if (ctx.viewUrls.js) {
    try { mod = await import(ctx.viewUrls.js); } catch (err) { console.warn("the game's view failed to load", err); }
  }
  const shared = {
    board: $("board"), hand: $("hand"), players: $("players"), extra: $("extra"),
    areaInfo: $("area-info"), pending: $("pending"), menu: $("menu"),
    staticInfo: ctx.staticInfo, grammar: ctx.grammar, table: ctx.table, seat,
    act: (text) => send(text), shared: null,
  };
  const game = mod?.createView ? mod.createView(shared) || {} : {};
  const board = hasBoard(ctx.staticInfo) ? createBoard(shared, game.look || {}) : null;
  shared.shared = board;
  const grammar = grammarMap(ctx.grammar);
  const plainLabel = (t) => fillLabel(parse(t, grammar), (v, type) => (type === "seat" ? ctx.table?.seats?.[Number(v)]?.name ?? v : String(v).replace(/_/g, " ")));
  return {
    render(v, legal) {
      shared.table = ctx.table;
      drawPlayers(v, board);
      game.render?.(v, legal); // first: the look may read what the game's view keeps of `v`
      if (board) board.render(v, legal);
      else clear($("board")).append(el("div", { class: "observation" }, readable(v.observation)));
      if (!board) clear($("hand")).hidden = true;
    },
    label: (t) => game.label?.(t) ?? (board ? board.label(t) : plainLabel(t)),
    confirm: (t, v) => game.confirm?.(t, v) ?? null,
    prompt: (v, mine) => (mine ? game.prompt?.(v, mine) || board?.prompt() || "Choose an action on the right." : ""),
    closeMenu: () => { board?.closeMenu(); game.closeMenu?.(); },
    reset: () => board?.reset() ?? false,
  };
}

// An observation without a board, for people: nested keys and values, never raw JSON.
function readable(value, depth = 0) {
  if (value === null || value === undefined) return el("span", { class: "muted", text: "—" });
  if (Array.isArray(value)) {
    if (!value.length) return el("span", { class: "muted", text: "none" });
    if (value.every((x) => typeof x !== "object" || x === null)) return el("span", { text: value.map((x) => x ?? "—").join(", ") });
    return el("ol", {}, ...value.map((x) => el("li", {}, readable(x, depth + 1))));
  }
  if (typeof value === "object") {
    const dl = el("dl", { class: "readable" });
    for (const [k, x] of Object.entries(value)) {
      if (k === "board" || k === "log") continue;
      dl.append(el("dt", { text: k.replace(/_/g, " ") }), el("dd", {}, readable(x, depth + 1)));
    }
    return dl;
  }
  if (typeof value === "boolean") return el("span", { text: value ? "yes" : "no" });
  return el("span", { text: String(value) });
}

// Log lines name seats "P0", "P1 (Horse Lords)", or "seat 1 (Witch)" (the core's default
// label, at the start of a line): people read the players' names instead.
function withNames(line) {
  const name = (whole, n) => ctx.table?.seats?.[Number(n)]?.name ?? whole;
  return String(line).replace(/^seat (\d+)\b/, name).replace(/\bP(\d+)\b/g, name);
}

// The seat a log line is about (it starts with the seat's label), or null.
function lineSeat(line) {
  const m = /^(?:P|seat )(\d+)\b/.exec(String(line));
  return m ? Number(m[1]) : null;
}

// What a seat plays (a faction, a side), as the board names its seats.
function roleOf(s) {
  return ctx.staticInfo?.board?.seats?.find((x) => x.seat === s)?.name ?? "";
}

// Every seat with its colour and role; a game's view may draw its own panel over it.
function drawPlayers(v, board) {
  const box = clear($("players"));
  for (const s of ctx.table.seats) {
    const toMove = (v.actors ?? [v.current_player]).includes(s.seat);
    box.append(el("div", { class: `player ${toMove ? "to-move" : ""}`, dataset: { seat: s.seat } },
      el("div", { class: "player-head" },
        board ? el("span", { class: "swatch", style: `background:${board.seatColour(s.seat)}` }) : null,
        el("strong", { text: s.name }),
        el("span", { class: "muted", text: `${s.kind === "agent" ? " (AI)" : ""}${roleOf(s.seat) ? ` · ${roleOf(s.seat)}` : ""}` }),
        toMove ? el("span", { class: "turn-flag", text: "to play" }) : null,
        v.observation?.seat === s.seat || seat === s.seat ? el("span", { class: "you-flag", text: "you" }) : null)));
  }
}

// ---------------------------------------------------------------------------------------------
// live mode
function connect(delay = 500) {
  const ws = new WebSocket(wsUrl(`/ws/tables/${encodeURIComponent(tableId)}`));
  ctx.ws = ws;
  setConn("connecting…");
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "hello", seat, token }));
    setConn("live");
    delay = 500;
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    ctx.busy = false;
    if (ev.code >= 4400 && ev.code < 4500) { setConn("refused"); return; }
    setConn("reconnecting…");
    setTimeout(() => connect(Math.min(delay * 2, 10000)), delay);
  };
}

function onMessage(msg) {
  if (msg.type === "state") {
    if (msg.log_start === 0) ctx.logLines = msg.log.slice();
    else ctx.logLines = ctx.logLines.slice(0, msg.log_start).concat(msg.log);
    if (ctx.seenUpTo === undefined) ctx.seenUpTo = ctx.logLines.length;
    ctx.view = msg;
    ctx.table = msg.table;
    render();
  } else if (msg.type === "ack") {
    ctx.busy = false;
    renderActions();
  } else if (msg.type === "error") {
    ctx.busy = false;
    const e = msg.error || {};
    if (e.code === "auth/bad_token" || e.code === "auth/missing_token" || e.code === "table/not_found") {
      showBanner(`${e.message}. Check your link.`, "error");
    } else if (e.code === "action/stale") {
      toast("The table moved on before your action arrived; here is the current position.", "info");
    } else {
      toast(e.message || "refused");
    }
    renderActions();
  }
}

// Ending a turn while other actions are still open cannot be taken back: ask first (inline, no
// dialog). A game's view may ask for more or less (`confirm(text, view)`: a question, false
// for no question, null for this default).
const END_VERBS = new Set(["done", "end", "end_turn"]);
function confirmQuestion(text) {
  const asked = ctx.ui.confirm?.(text, ctx.view); // a question, false (never ask) or null (default)
  if (asked === false) return null;
  if (asked) return asked;
  if (!END_VERBS.has(text.split(" ")[0])) return null;
  const others = ctx.view.legal.filter((t) => t !== text && t !== "cancel" && !END_VERBS.has(t.split(" ")[0]));
  return others.length ? `End your turn? You could still make ${others.length} other move${others.length > 1 ? "s" : ""}.` : null;
}

function askConfirm(text, question) {
  const bar = clear($("confirm"));
  bar.hidden = false;
  bar.append(el("span", { text: question }),
    el("button", { type: "button", class: "primary confirm-yes", dataset: { action: text }, onclick: () => { bar.hidden = true; send(text, true); }, text: ctx.ui.label(text) }),
    el("button", { type: "button", class: "confirm-no", onclick: () => { bar.hidden = true; }, text: "Keep playing" }));
  bar.querySelector(".confirm-yes").focus();
}

function send(text, confirmed = false) {
  if (replayMode || !ctx.view || ctx.busy) return;
  if (!ctx.view.legal.includes(text)) { toast(`Not possible now: ${text}`); return; }
  const question = confirmed ? null : confirmQuestion(text);
  if (question) { askConfirm(text, question); return; }
  $("confirm").hidden = true;
  ctx.seenUpTo = ctx.logLines.length;
  ctx.busy = true;
  ctx.ws.send(JSON.stringify({ type: "act", action: text, version: ctx.view.version, id: ++ctx.msgId }));
  renderActions();
}

function onKey(ev) {
  if (ev.key === "Escape") {
    ctx.ui.closeMenu();
    if (ctx.ui.reset()) return; // first Esc drops the arguments picked on the board
    if (!replayMode && ctx.view?.legal.includes("cancel")) send("cancel");
  }
}

function setConn(text) { $("conn").textContent = text; }

// ---------------------------------------------------------------------------------------------
// rendering shared by both modes
function render() {
  const v = ctx.view;
  // For people: nothing. For tests and tools: which version and phase the page shows.
  document.body.dataset.version = String(v.version);
  document.body.dataset.phase = v.phase;
  document.body.dataset.terminal = String(v.terminal);
  ctx.ui.render(v, replayMode ? [] : v.legal);
  renderPrompt();
  renderClocks();
  renderActions();
  renderLog();
  renderBanner();
}

function seatName(s) {
  return ctx.table?.seats[s]?.name ?? `seat ${s}`;
}

function renderPrompt() {
  const v = ctx.view;
  const box = clear($("prompt"));
  if (v.terminal) { box.append(el("strong", { text: "Game over." })); return; }
  if (replayMode) {
    box.classList.remove("your-turn");
    box.append(el("span", { text: `Replay: ${seatName(v.current_player)} to play` }), el("span", { class: "muted", text: ` — ${v.phase.replace(/_/g, " ")}` }));
    return;
  }
  const mine = !replayMode && seat !== null && (v.actors ?? [v.current_player]).includes(seat);
  const hint = ctx.ui.prompt(v, mine);
  if (mine) {
    box.classList.add("your-turn");
    box.append(el("strong", { text: "Your turn. " }), hint);
    const due = v.deadlines?.[String(seat)];
    if (due) box.append(el("span", { class: "countdown", dataset: { deadline: String(due) } }));
    tickCountdowns();
  } else {
    box.classList.remove("your-turn");
    const who = (v.actors ?? [v.current_player]).map((a) => {
      const s = ctx.table.seats[a];
      return s ? `${s.name}${s.kind === "agent" ? " (AI)" : ""}` : `seat ${a + 1}`;
    });
    box.append(el("span", { text: `Waiting for ${who.join(" and ") || "the game"}` }), el("span", { class: "muted", text: ` — ${v.phase.replace(/_/g, " ")}` }));
  }
  announceTurn(mine, v);
}

// Turn changes: the page title, a short sound, a browser notification when the tab is hidden
// (if allowed), and an announcement for screen readers.
let wasMine = null;
function announceTurn(mine, v) {
  const base = `${ctx.table.name} — bloodforge`;
  document.title = mine ? `● Your turn — ${base}` : base;
  if (mine === wasMine) return;
  const first = wasMine === null;
  wasMine = mine;
  const live = $("announce");
  if (live) live.textContent = mine ? "Your turn." : `Waiting for ${seatName(v.current_player)}.`;
  if (!mine || first) return;
  document.body.dataset.turnAlerts = String(Number(document.body.dataset.turnAlerts || 0) + 1);
  beep();
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    try { new Notification("bloodforge: your turn", { body: ctx.table.name, tag: `bloodforge-${tableId}` }); } catch { /* not allowed here */ }
  }
}

let audio = null;
function beep() {
  if (localStorage.getItem("bloodforge.sound") === "off") return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch { /* no audio here */ }
}

function setupAlerts() {
  const sound = $("sound-toggle");
  const paint = () => { sound.textContent = localStorage.getItem("bloodforge.sound") === "off" ? "Sound: off" : "Sound: on"; };
  sound.onclick = () => { localStorage.setItem("bloodforge.sound", localStorage.getItem("bloodforge.sound") === "off" ? "on" : "off"); paint(); };
  paint();
  const notify = $("notify-toggle");
  if (!("Notification" in window) || Notification.permission !== "default") { notify.hidden = true; return; }
  notify.onclick = async () => { try { await Notification.requestPermission(); } catch { /* refused */ } notify.hidden = true; };
}

// Seconds left on the seats' clocks (deadlines are unix ms from the server): beside the prompt
// and, for every seat with a clock, in the clock bar above the board.
function tickCountdowns() {
  for (const node of document.querySelectorAll(".countdown")) {
    const left = Math.max(0, Math.ceil((Number(node.dataset.deadline) - Date.now()) / 1000));
    node.textContent = ` ${formatLeft(left)} left`;
    node.classList.toggle("urgent", left <= 10);
  }
}

function formatLeft(s) {
  return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${s} s`;
}

function renderClocks() {
  const bar = $("clocks");
  if (!bar) return;
  const due = Object.entries(ctx.view?.deadlines || {});
  clear(bar).hidden = replayMode || !due.length || ctx.view.terminal;
  for (const [s, at] of due) {
    const mine = Number(s) === seat;
    bar.append(el("span", { class: `clock ${mine ? "mine" : ""}`, dataset: { seat: s } },
      el("span", { text: mine ? "Your time: " : `${seatName(Number(s))}'s time: ` }),
      el("strong", { class: "countdown", dataset: { deadline: String(at) } })));
  }
  if (ctx.table?.turn_clock) bar.append(el("span", { class: "muted small", text: ` · ${ctx.table.turn_clock} s per turn; when it runs out an AI takes over the seat` }));
  tickCountdowns();
}
setInterval(tickCountdowns, 500);

function renderActions() {
  const box = clear($("actions"));
  const v = ctx.view;
  if (!v || replayMode || !v.legal.length) return;
  const groups = new Map();
  for (const text of v.legal) {
    const verb = text.split(" ")[0];
    if (!groups.has(verb)) groups.set(verb, []);
    groups.get(verb).push(text);
  }
  const label = (t) => ctx.ui.label(t);
  const quick = el("div", { class: "quick" });
  for (const verb of ["cancel", "done", "stay", "keep"]) {
    for (const text of groups.get(verb) || []) {
      quick.append(el("button", {
        type: "button", class: verb === "cancel" ? "undo" : "primary", disabled: ctx.busy,
        dataset: { action: text }, onclick: () => send(text), text: label(text),
      }));
    }
    groups.delete(verb);
  }
  box.append(quick);
  const help = new Map(ctx.grammar.map((g) => [g.kind, g.help]));
  for (const [verb, texts] of groups) {
    const details = el("details", { class: "verb-group", open: texts.length <= 12 });
    const count = texts.length > 12 ? ` ${texts.length} options (or click the board)` : ` ${texts.length}`;
    details.append(el("summary", {}, el("strong", { text: verb }), el("span", { class: "muted small", text: `${count} · ${help.get(verb) || ""}` })));
    const list = el("div", { class: "verb-buttons" });
    for (const text of texts) {
      list.append(el("button", { type: "button", disabled: ctx.busy, dataset: { action: text }, onclick: () => send(text), text: label(text), title: help.get(verb) || label(text) }));
    }
    details.append(list);
    box.append(details);
  }
}

// The log with players' names; lines about AI seats are marked, and what happened since your
// last action is highlighted, so results (tiles, dice, the AI's moves) are seen.
function renderLog() {
  const box = clear($("log"));
  const lines = ctx.logLines;
  const start = Math.max(0, lines.length - 300);
  const isAi = (i) => ctx.table?.seats?.[lineSeat(lines[i])]?.kind === "agent";
  const fresh = replayMode ? lines.length : ctx.seenUpTo ?? lines.length;
  for (let i = start; i < lines.length; i++) {
    const s = lineSeat(lines[i]);
    box.append(el("li", { class: `${isAi(i) ? "by-ai" : ""} ${i >= fresh ? "fresh" : ""}`, value: i + 1, dataset: s === null ? {} : { seat: String(s) }, text: withNames(lines[i]) }));
  }
  box.scrollTop = box.scrollHeight;
}

function renderBanner() {
  const v = ctx.view;
  if (!v.terminal || !v.result) { if (!replayMode) $("banner").hidden = true; return; }
  const winners = v.result.winners.map(seatName);
  const scores = v.result.scores.map((s, i) => `${seatName(i)} ${s}`).join(" · ");
  showBanner(`Game over — ${winners.length ? `${winners.join(" and ")} won` : "no winner"}. Scores: ${scores}`, "over");
}

function showBanner(text, kind) {
  const b = $("banner");
  b.hidden = false;
  b.className = `banner ${kind}`;
  b.textContent = text;
}

// ---------------------------------------------------------------------------------------------
// replay mode: the table after any number of actions, as this seat saw it then
async function startReplay() {
  $("replay-bar").hidden = false;
  setConn("replay");
  const slider = $("rp-slider");
  const table = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`);
  ctx.table = table;
  slider.max = String(table.ply);
  const go = (ply) => showPly(Math.max(0, Math.min(Number(slider.max), ply)));
  $("rp-first").onclick = () => go(0);
  $("rp-prev").onclick = () => go(Number(slider.value) - 1);
  $("rp-next").onclick = () => go(Number(slider.value) + 1);
  $("rp-last").onclick = async () => {
    const t = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`);
    slider.max = String(t.ply);
    go(t.ply);
  };
  slider.oninput = () => go(Number(slider.value));
  let timer = null;
  $("rp-play").onclick = () => {
    if (timer) { clearInterval(timer); timer = null; $("rp-play").textContent = "▷ play"; return; }
    $("rp-play").textContent = "❚❚ pause";
    timer = setInterval(() => {
      if (Number(slider.value) >= Number(slider.max)) { clearInterval(timer); timer = null; $("rp-play").textContent = "▷ play"; return; }
      go(Number(slider.value) + 1);
    }, 400);
  };
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowLeft") go(Number(slider.value) - 1);
    if (ev.key === "ArrowRight") go(Number(slider.value) + 1);
  });
  try {
    const q = seat === null ? "" : `?seat=${seat}`;
    ctx.history = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/history${q}`, undefined, token);
  } catch { ctx.history = []; }
  await showPly(table.ply);
}

let replaySeq = 0;
async function showPly(ply) {
  const seq = ++replaySeq;
  const q = seat === null ? "" : `?seat=${seat}`;
  let r;
  try {
    r = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/replay/${ply}${q}`, undefined, token);
  } catch (err) {
    toast(err.message);
    return;
  }
  if (seq !== replaySeq) return;
  $("rp-slider").value = String(ply);
  const last = ply > 0 && ctx.history ? ctx.history[ply - 1] : null;
  const what = last ? ` · last: ${seatName(last.seat)}${last.action ? ` — ${last.action}` : ""}` : "";
  $("rp-label").textContent = `action ${ply} of ${r.plies}${what}`;
  ctx.logLines = r.log;
  ctx.view = { ...r, legal: [], version: ply, table: ctx.table, result: null };
  render();
  if (r.terminal) showBanner("Replay: the game is over at this point.", "over");
  else $("banner").hidden = true;
}

start();
