// A table page, live or replay. Generic over games: it keeps the websocket, the seat, the log,
// the action panel (every legal action as a button, grouped by verb and worded by the grammar's
// label templates: the fallback that always works) and the replay controls. The shared board
// (boards/board.js) draws static_info()["board"] and makes it clickable; the game's own view.js
// (served from games/<id>/web/) only gives the look and extra panels (docs/browser.md).
import { api, cardIn, cardNode, clear, el, hostToken, humanize, inOrder, installCardTips, reducedMotion, rememberHost, rememberSeat, toast, wsUrl } from "/static/common.js";
import { grammarMap, label as fillLabel, parse } from "/static/boards/actions.js";
import { createBoard, hasBoard } from "/static/boards/board.js";
import { tutorial } from "/static/tutorial.js";
import { hintPanel } from "/static/hint.js";

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

let { seat, token } = readSeat();
const ctx = {
  tableId, seat, token, replayMode,
  table: null, staticInfo: null, grammar: [], module: null,
  view: null, busy: false, msgId: 0, ws: null, logLines: [],
};

// A seat link is claim-once: the first browser to open it gets a credential of its own (kept in
// the fragment and in Your seats); a link someone else opened first shows the table as a spectator.
async function claimSeat() {
  try {
    const r = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/claim`, undefined, token);
    if (r.token !== token) {
      token = ctx.token = r.token;
      history.replaceState(null, "", `${location.pathname}#seat=${seat}&token=${encodeURIComponent(token)}`);
    }
  } catch (err) {
    if (err.code !== "seat/claimed") return;  // other refusals are shown where the seat is used
    toast("This seat's link was opened in another browser first: you are watching as a spectator.", "info");
    seat = ctx.seat = null;
    token = ctx.token = null;
    history.replaceState(null, "", location.pathname);
  }
}

async function start() {
  if (seat !== null && token) await claimSeat();
  try {
    const [table, stat] = await Promise.all([
      api("GET", `/api/tables/${encodeURIComponent(tableId)}`),
      api("GET", `/api/tables/${encodeURIComponent(tableId)}/static`),
    ]);
    ctx.table = table;
    ctx.staticInfo = stat.static;
    ctx.grammar = stat.grammar;
    ctx.viewUrls = { js: stat.view, css: stat.view_css };
    ctx.roles = Array.isArray(stat.roles) ? stat.roles : [];
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
  setupCards();
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
      // a game's view that throws must not take the prompt, actions, log or summary with it
      guarded(() => game.render?.(v, legal)); // first: the look may read what the game's view keeps of `v`
      keepStatus(v);
      const extra = $("extra");
      extra.hidden = !(extra.childElementCount || extra.textContent.trim());
      if (board) guarded(() => board.render(v, legal));
      else clear($("board")).append(el("div", { class: "observation" }, readable(v.observation)));
      if (!board) clear($("hand")).hidden = true;
    },
    label: (t) => game.label?.(t) ?? (board ? board.label(t) : plainLabel(t)),
    confirm: (t, v) => game.confirm?.(t, v) ?? null,
    logText: (t) => (game.logText ? game.logText(t) : t),
    logSeat: (t) => (game.logSeat ? game.logSeat(t) : null),
    prompt: (v, mine) => (mine ? game.prompt?.(v, mine) || board?.prompt() || "Choose an action below." : ""),
    closeMenu: () => { board?.closeMenu(); game.closeMenu?.(); },
    seatColour: (s) => board?.seatColour(s) ?? null,
    reset: () => board?.reset() ?? false,
  };
}

function guarded(draw) {
  try { draw(); } catch (err) {
    console.error("the game's view failed", err);
    document.body.dataset.viewError = String(err?.message ?? err);
  }
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
// A game whose log names seats its own way ("Red") words them through its view's logText.
function withNames(line) {
  const name = (whole, n) => ctx.table?.seats?.[Number(n)]?.name ?? whole;
  // a game's own words start a sentence with a capital ("round 5: Elves to play", "game over:
  // ..." in the log); a seat label is replaced by the player's name as the player wrote it
  const raw = String(line);
  const opened = /^[a-z]/.test(raw) && !/^seat \d/.test(raw) ? raw[0].toUpperCase() + raw.slice(1) : raw;
  const text = opened.replace(/^seat (\d+)\b/, name).replace(/\bP(\d+)\b/g, name);
  return idWords(ctx.ui?.logText ? ctx.ui.logText(text) : text);
}

// Ids a game left in a text ("siege_engine") read as the game names them (its cards, its
// board's names), else as words: a safety net, games word their texts themselves.
function idWords(text) {
  return String(text).replace(/(?<![\w/.#-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/-])/g, (id) =>
    ctx.staticInfo?.cards?.[id]?.name ?? ctx.staticInfo?.board?.names?.[id] ?? id.replace(/_/g, " "));
}

// The seat a log line is about (it starts with the seat's label), or null.
function lineSeat(line) {
  const m = /^(?:P|seat )(\d+)\b/.exec(String(line));
  if (m) return Number(m[1]);
  const s = ctx.ui?.logSeat ? ctx.ui.logSeat(String(line)) : null; // a game naming seats its own way
  return Number.isInteger(s) ? s : null;
}

// What a seat plays (a faction, a side), as the board names its seats.
function roleOf(s) {
  // the table's own seat roles first: a seat may command two factions ("Elves + Dwarves")
  return ctx.roles?.find((x) => x.seat === s)?.role || ctx.staticInfo?.board?.seats?.find((x) => x.seat === s)?.name || "";
}

// Every seat with its colour and role; a game's view may draw its own panel over it.
function drawPlayers(v, board) {
  const box = clear($("players"));
  for (const s of ctx.table.seats) {
    const toMove = (v.actors ?? [v.current_player]).includes(s.seat);
    box.append(el("div", { class: `player ${toMove ? "to-move" : ""}`, dataset: { seat: s.seat } },
      el("div", { class: "player-head" },
        board ? el("span", { class: "swatch", style: `background:${board.seatColour(s.seat, v)}` }) : null,
        el("strong", { text: s.name }),
        el("span", { class: "muted", text: `${s.kind === "agent" ? " (AI)" : ""}${roleOf(s.seat) ? ` · ${roleOf(s.seat)}` : ""}` }),
        toMove ? el("span", { class: "turn-flag", text: "to play" }) : null,
        v.observation?.seat === s.seat || seat === s.seat ? el("span", { class: "you-flag", text: "you" }) : null),
      ...statusOf(v).filter((e) => e.seat === s.seat).map((e) => statusBlock(e, s))));
  }
  // combatants that belong to no seat (a boss, an NPC): their own block at the end
  const others = statusOf(v).filter((e) => e.seat === undefined || e.seat === null || !ctx.table.seats[e.seat]);
  if (others.length) box.append(el("div", { class: "player others" }, ...others.map((e) => statusBlock(e, null))));
}

// Issue 18, contract 1: observation["status"], one entry per seat (or combatant), its items
// worded by the game; "private" only ever in the owner's own observation.
function statusOf(v) {
  const st = v?.observation?.status;
  return Array.isArray(st) ? st.filter((e) => e && typeof e === "object") : [];
}

// A game's view may redraw the players panel: the status boards go back under its seats (the
// view's elements with data-seat), or at its end, so they are always on screen.
function keepStatus(v) {
  const box = $("players");
  const entries = statusOf(v);
  if (!entries.length || box.querySelector(".status")) return;
  for (const e of entries) {
    const info = ctx.table.seats[e.seat] ?? null;
    const home = Number.isInteger(e.seat) ? box.querySelector(`[data-seat="${e.seat}"]`) : null;
    (home ?? box).append(statusBlock(e, home ? info : null));
  }
}

function statusBlock(entry, seatInfo) {
  const item = (it, secret) => el("span", { class: `status-item${secret ? " private" : ""}`, title: it.hint ?? null, dataset: it.card ? { card: it.card } : {} },
    el("span", { class: "status-label", text: `${it.label ?? ""}` }), " ",
    el("strong", { class: "status-value", text: `${it.value ?? ""}` }));
  const items = (entry.items || []).filter((it) => it && (it.label || it.value));
  const secret = (entry.private || []).filter((it) => it && (it.label || it.value));
  const showTitle = entry.title && (!seatInfo || (entry.title !== seatInfo.name && entry.title !== roleOf(seatInfo.seat)));
  return el("div", { class: "status", dataset: entry.unit !== undefined ? { unit: String(entry.unit) } : {} },
    showTitle ? el("div", { class: "status-title", text: entry.title }) : null,
    items.length ? el("div", { class: "status-items" }, ...items.map((it) => item(it, false))) : null,
    secret.length ? el("div", { class: "status-items private-items", title: "Only you see this" }, ...secret.map((it) => item(it, true))) : null);
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
  } else if (msg.type === "rematch") {
    offerRematch(msg);
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
  if (ev.key === "Escape" && $("battle-dialog").open) { $("battle-dialog").close(); return; }
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
  renderBattles();
  renderSummary();
  tutorial(ctx); // Learn to play: the coach panel of a tutorial table (tutorial.js)
}

function seatName(s) {
  if (s === null || s === undefined) return "the game";
  return ctx.table?.seats[s]?.name ?? `Seat ${Number(s) + 1}`;
}

function renderPrompt() {
  const v = ctx.view;
  const box = clear($("prompt"));
  if (v.terminal) {
    box.classList.remove("your-turn");
    const over = gameOverText(v);
    box.append(el("strong", { text: "Game over. " }), el("span", { text: over }));
    if (v.summary) box.append(" ", el("button", { type: "button", class: "small", onclick: () => openSummary(v), text: "Summary" }));
    announceEnd(over);
    return;
  }
  if (replayMode) {
    box.classList.remove("your-turn");
    const who = (v.actors ?? []).filter((a) => a !== null && a !== undefined).map(seatName);
    box.append(el("span", { text: who.length ? `Replay: ${who.join(" and ")} to play` : "Replay: the game's own step" }), phaseSpan(v));
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
    box.append(el("span", { text: `Waiting for ${who.join(" and ") || "the game"}` }), phaseSpan(v));
  }
  if (mine) box.prepend(phaseSpan(v, true));
  announceTurn(mine, v);
}

// The phase for people: the game's `phase_label`, else its phase in words (never an id).
function phaseText(v) {
  const label = v.observation?.phase_label;
  if (typeof label === "string" && label) return label;
  return v.phase ? humanize(v.phase) : "";
}

function phaseSpan(v, head = false) {
  const text = phaseText(v);
  if (!text) return "";
  return head ? el("span", { class: "phase-label", text }) : el("span", { class: "muted phase-label", text: ` — ${text}` });
}

function gameOverText(v) {
  const winners = v.summary?.winners ?? v.result?.winners ?? [];
  if (!winners.length) return "No player won.";
  return `${winners.map(seatName).join(" and ")} won.`;
}

// After the end the screen-reader region and the title say so (not "Waiting for ...").
function announceEnd(text) {
  const live = $("announce");
  const said = `Game over. ${text}`;
  if (live && live.textContent !== said) live.textContent = said;
  document.title = `Game over — ${ctx.table.name} — bloodforge`;
  wasMine = false;
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
  if (live) live.textContent = mine ? "Your turn." : `Waiting for ${(v.actors ?? [v.current_player]).filter((a) => a !== null && a !== undefined).map(seatName).join(" and ") || "the game"}.`;
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
    // written only when it changes: the same text written again is laid out and painted again
    const text = ` ${formatLeft(left)} left`;
    if (node.textContent !== text) node.textContent = text;
    node.classList.toggle("urgent", left <= 10); // a class already in that state is left alone
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
        dataset: withCard({ action: text }, text), onclick: () => send(text), text: label(text),
      }));
    }
    groups.delete(verb);
  }
  box.append(quick);
  hintPanel(ctx, box); // tables with hints: the Hint button (web/hint.js)
  const help = new Map(ctx.grammar.map((g) => [g.kind, g.help]));
  for (const [verb, texts] of groups) {
    const details = el("details", { class: "verb-group", open: texts.length <= 12 });
    const count = texts.length > 12 ? ` ${texts.length} options (or click the board)` : ` ${texts.length}`;
    details.append(el("summary", {}, el("strong", { text: verbName(verb, texts) }), el("span", { class: "muted small", text: `${count}${help.get(verb) ? ` · ${help.get(verb)}` : ""}` })));
    const list = el("div", { class: "verb-buttons" });
    for (const text of texts) {
      list.append(el("button", { type: "button", disabled: ctx.busy, dataset: withCard({ action: text }, text), onclick: () => send(text), text: label(text), title: help.get(verb) || label(text) }));
    }
    details.append(list);
    box.append(details);
  }
}

// An action's data attributes, with the card its arguments name (its description on hover).
function withCard(data, text) {
  const card = cardIn(text, ctx.staticInfo?.cards);
  return card ? { ...data, card } : data;
}

// A verb group's heading: the grammar's label without its arguments ("Move", "Play"), else
// the verb in words, never its id.
function verbName(verb, texts) {
  const spec = ctx.grammar.find((g) => g.kind === verb);
  const head = spec?.label ? spec.label.split("{")[0].trim() : "";
  if (head) return head;
  if (texts.length === 1 && !texts[0].includes(" ")) return ctx.ui.label(texts[0]);
  return humanize(verb);
}

// The log with players' names; lines about AI seats are marked, and what happened since your
// last action is highlighted, so results (tiles, dice, the AI's moves) are seen.
//
// The lines already shown keep their nodes (only their marks are updated): rebuilding up to 300
// lines for every move was a fifth of the browser's work per update.
let logDrawn = new Map(); // line number -> { key, li }
function renderLog() {
  const box = $("log");
  const lines = ctx.logLines;
  const start = Math.max(0, lines.length - 300);
  const isAi = (i) => ctx.table?.seats?.[lineSeat(lines[i])]?.kind === "agent";
  const fresh = replayMode ? lines.length : ctx.seenUpTo ?? lines.length;
  const battleAt = new Map(battlesOf(ctx.view).filter((b) => Number.isInteger(b.log_index)).map((b) => [b.log_index, b]));
  const drawn = new Map();
  const wanted = [];
  for (let i = start; i < lines.length; i++) {
    const battle = battleAt.get(i);
    const key = `${lines[i]}\u0000${battle ? battle.id : ""}`;
    let li = logDrawn.get(i)?.key === key ? logDrawn.get(i).li : null;
    if (!li) {
      const s = lineSeat(lines[i]);
      li = el("li", { value: i + 1, dataset: s === null ? {} : { seat: String(s) } }, ...withCards(withNames(lines[i])));
      if (battle) li.append(" ", el("button", { type: "button", class: "battle-link small", dataset: { battle: battle.id }, onclick: () => openBattle(battle, false), text: "⚔ battle" }));
    }
    li.classList.toggle("by-ai", isAi(i)); // a seat an AI took over
    li.classList.toggle("fresh", i >= fresh);
    drawn.set(i, { key, li });
    wanted.push(li);
  }
  inOrder(box, wanted);
  logDrawn = drawn;
  box.scrollTop = box.scrollHeight;
}

// A log line with the names of the game's cards as [data-card] words (their text on hover).
let cardWords = null;
function withCards(line) {
  const cards = ctx.staticInfo?.cards;
  if (!cards) return [line];
  if (cardWords === null) {
    const byName = new Map();
    // names of sides and players come first and stay plain ("Dragon Riders" is no "Dragon")
    for (const s of [...(ctx.staticInfo?.board?.seats || []), ...(ctx.table?.seats || [])]) if (s?.name) byName.set(String(s.name), null);
    for (const [id, c] of Object.entries(cards)) if (c?.name && String(c.name).length >= 3 && !byName.has(c.name)) byName.set(String(c.name), id);
    const names = [...byName.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    // a card name followed by another capitalised word is part of a longer name ("Dragon Riders")
    cardWords = names.length ? { re: new RegExp(`\\b(${names.join("|")})\\b(?! [A-Z])`, "g"), byName } : { re: null, byName };
  }
  if (!cardWords.re) return [line];
  const out = [];
  let last = 0;
  for (const m of line.matchAll(cardWords.re)) {
    if (m.index > last) out.push(line.slice(last, m.index));
    const id = cardWords.byName.get(m[1]);
    out.push(id ? el("span", { class: "card-word", tabindex: "0", dataset: { card: id }, text: m[1] }) : m[1]);
    last = m.index + m[1].length;
  }
  if (last < line.length) out.push(line.slice(last));
  return out;
}

function renderBanner() {
  if (ctx.rematch) return; // the banner offers the rematch now
  const v = ctx.view;
  if (!v.terminal || !v.result) { if (!replayMode) $("banner").hidden = true; return; }
  const winners = v.result.winners.map(seatName);
  const scores = v.result.scores.map((s, i) => `${seatName(i)} ${s}`).join(" · ");
  showBanner(`Game over — ${winners.length ? `${winners.join(" and ")} won` : "no player won"}. Scores: ${scores}`, "over");
}

function showBanner(text, kind) {
  const b = $("banner");
  b.hidden = false;
  b.className = `banner ${kind}`;
  b.textContent = text;
}

// ---------------------------------------------------------------------------------------------
// Cards (contract 2): a tooltip on every [data-card], and the list of all the game's cards.
function setupCards() {
  installCardTips($("card-tip"), () => ctx.staticInfo?.cards);
  const cards = ctx.staticInfo?.cards;
  const button = $("cards-button");
  if (!cards || !Object.keys(cards).length || !button) return;
  button.hidden = false;
  button.onclick = () => openCards();
}

function openCards() {
  const cards = ctx.staticInfo?.cards || {};
  const groups = new Map();
  for (const [id, c] of Object.entries(cards)) {
    const kind = c?.kind ? humanize(c.kind) : "Other";
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push([id, c]);
  }
  const filter = el("input", { type: "text", class: "cards-filter", placeholder: "Find a card", "aria-label": "Find a card" });
  const body = el("div", { class: "cards-list" });
  const paint = () => {
    const q = filter.value.trim().toLowerCase();
    clear(body);
    for (const [kind, list] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
      const shown = list.filter(([, c]) => !q || `${c?.name ?? ""} ${c?.text ?? ""}`.toLowerCase().includes(q))
        .sort((a, b) => String(a[1]?.name ?? a[0]).localeCompare(String(b[1]?.name ?? b[0])));
      if (!shown.length) continue;
      body.append(el("h3", { text: `${kind} (${shown.length})` }), el("div", { class: "cards-grid" }, ...shown.map(([id, c]) => cardNode(c, id))));
    }
  };
  filter.addEventListener("input", paint);
  paint();
  showDialog($("list-dialog"), "All cards", el("div", {}, filter, body), true);
}

// A dialog with a title and a close button; modal ones dim the page.
function showDialog(dialog, title, content, modal = false, titleId = null) {
  clear(dialog).append(el("div", { class: "dialog-head" },
    el("h2", { id: titleId, text: title }),
    el("button", { type: "button", class: "dialog-close", "aria-label": "Close", title: "Close", onclick: () => dialog.close(), text: "×" })), content);
  if (dialog.open) dialog.close();
  if (modal) dialog.showModal(); else dialog.show();
  dialog.querySelector(".dialog-close")?.focus({ preventScroll: true });
  return dialog;
}

// ---------------------------------------------------------------------------------------------
// Battles (contract 3): a dialog for each new battle, until dismissed; the log line that ends
// it has a "battle" button, and the log panel a list of the recent battles.
function battlesOf(v) {
  const list = v?.observation?.battles;
  return Array.isArray(list) ? list.filter((b) => b && b.id !== undefined && b.id !== null) : [];
}

function renderBattles() {
  const list = battlesOf(ctx.view);
  const button = $("battles-button");
  if (button) {
    button.hidden = !list.length;
    button.textContent = `Battles (${list.length})`;
    button.onclick = () => openBattleList();
  }
  const key = `bloodforge.battles.${tableId}.${seat ?? "s"}`;
  if (!ctx.seenBattles) {
    try { ctx.seenBattles = new Set(JSON.parse(sessionStorage.getItem(key) || "[]")); } catch { ctx.seenBattles = new Set(); }
  }
  // a finished game opened later shows its summary, not its last battle
  const quiet = ctx.view?.terminal && !ctx.battlesPainted;
  ctx.battlesPainted = true;
  // the open battle view follows its record: losses chosen after the battle (Bloodstones'
  // casualty step) show once the game knows them, instead of a stale "No losses" (issue 18)
  const dialog = $("battle-dialog");
  const shown = dialog?.open ? list.find((b) => String(b.id) === dialog.dataset.battle) : null;
  if (shown && JSON.stringify(shown) !== dialog.dataset.record) openBattle(shown, false, true);
  const fresh = list.filter((b) => !ctx.seenBattles.has(String(b.id)));
  if (!fresh.length) return;
  for (const b of fresh) ctx.seenBattles.add(String(b.id));
  try { sessionStorage.setItem(key, JSON.stringify([...ctx.seenBattles].slice(-50))); } catch { /* private mode */ }
  if (quiet || (replayMode && ctx.replayQuiet)) return; // jumping through a replay opens no dialogs
  // the battle that ended the game: the end summary wins, and names the battle with a button
  // to see it (the two dialogs opened together, the battle over the summary)
  if (endsNow(ctx.view)) { ctx.endBattle = fresh.at(-1); return; }
  openBattle(fresh.at(-1), true);
}

function openBattleList() {
  const list = battlesOf(ctx.view);
  const box = el("ol", { class: "battle-list" }, ...list.slice().reverse().map((b) => el("li", {},
    el("button", { type: "button", class: "link-button", onclick: () => { $("list-dialog").close(); openBattle(b, false); }, text: withNames(b.title || "Battle") }),
    b.result ? el("div", { class: "muted small", text: withNames(b.result) }) : null)));
  showDialog($("list-dialog"), "Recent battles", box, true);
}

// `refresh`: the dialog is open on this battle already; its content is redrawn in place.
function openBattle(b, animate, refresh = false) {
  const dialog = $("battle-dialog");
  dialog.dataset.battle = String(b.id);
  dialog.dataset.record = JSON.stringify(b);
  const colour = (s) => (ctx.ui.seatColour ? ctx.ui.seatColour(s) : null);
  const sides = (Array.isArray(b.sides) ? b.sides : []).map((side) => {
    const rolls = Array.isArray(side.rolls) ? side.rolls : [];
    const lines = [
      el("div", { class: "battle-side-name" },
        Number.isInteger(side.seat) && colour(side.seat) ? el("span", { class: "swatch", style: `background:${colour(side.seat)}` }) : null,
        el("strong", { text: withNames(side.name ?? (Number.isInteger(side.seat) ? seatName(side.seat) : "Side")) })),
    ];
    // a hit die is marked ✓ (not by its colour alone); dice of the same `need` ("Round 1: hits
    // on 3 or less") stand together under it, so a player sees why a die hit
    const die = (r) => el("span", {
      class: `die${r.hit ? " hit" : ""}${r.hit === false ? " miss" : ""}`, dataset: { face: String(r.face ?? "") },
      title: `${r.label ?? "die"}: ${r.face ?? ""}${r.hit ? " (hit)" : r.hit === false ? " (miss)" : ""}`,
    }, el("span", { class: "die-face", text: String(r.face ?? "?") }), r.hit ? el("span", { class: "die-mark", "aria-hidden": "true", text: "✓" }) : null);
    const groups = [];
    for (const r of rolls) {
      const need = typeof r.need === "string" && r.need ? r.need : null;
      if (groups.length && groups.at(-1).need === need) groups.at(-1).rolls.push(r);
      else groups.push({ need, rolls: [r] });
    }
    for (const g of groups) {
      lines.push(el("div", { class: "dice-group" },
        g.need ? el("div", { class: "dice-need small", text: withNames(g.need) }) : null,
        el("div", { class: "dice" }, ...g.rolls.map(die))));
    }
    const tiles = Array.isArray(side.tiles) ? side.tiles : [];
    // `counted`: the tiles the total adds up (Bloodstones counts the best few); the others are
    // struck through, so that the tiles, modifiers and total visibly add up
    const left = Array.isArray(side.counted) ? side.counted.map(String) : null;
    if (tiles.length) lines.push(el("div", { class: "battle-tiles-row" }, ...tiles.map((x) => {
      const at = left ? left.indexOf(String(x)) : 0;
      if (at >= 0 && left) left.splice(at, 1);
      return el("span", { class: `btile-chip${at < 0 ? " not-counted" : ""}`, text: String(x), title: at < 0 ? "does not count: only the best tiles count" : null });
    })));
    if (side.substitute) lines.push(el("div", { class: "battle-mods small", text: `Substitute: ${withNames(String(side.substitute))}` }));
    const mods = Array.isArray(side.modifiers) ? side.modifiers : [];
    if (mods.length) lines.push(el("div", { class: "battle-mods small" }, `Modifiers: ${mods.join(", ")}`));
    const facts = [["Total", side.total], ["Hits", side.hits]].filter(([, x]) => x !== undefined && x !== null && x !== "");
    if (facts.length) lines.push(el("div", { class: "battle-facts" }, ...facts.map(([k, x]) => el("span", {}, `${k} `, el("strong", { text: String(x) })))));
    const losses = Array.isArray(side.losses) ? side.losses : [];
    lines.push(el("div", { class: "battle-losses small" }, losses.length ? `Losses: ${losses.join(", ")}` : "No losses"));
    return el("div", { class: "battle-col" }, ...lines);
  });
  const content = el("div", { class: "battle-body" },
    el("div", { class: "battle-sides" }, ...sides),
    b.result ? el("p", { class: "battle-result", text: withNames(b.result) }) : null,
    el("div", { class: "dialog-actions" }, el("button", { type: "button", class: "primary", onclick: () => dialog.close(), text: "OK" })));
  const head = refresh ? dialog.querySelector(".dialog-head") : null;
  if (head) { clear(dialog).append(head, content); return; }
  showDialog(dialog, withNames(b.title || "Battle"), content, false, "battle-title");
  if (animate) rollDice(dialog);
}

// The dice tumble for a moment before showing their faces (not with reduced motion).
function rollDice(box) {
  const dice = [...box.querySelectorAll(".die .die-face")];
  if (!dice.length || reducedMotion()) return;
  const faces = dice.map((d) => d.textContent);
  box.classList.add("rolling");
  let n = 0;
  const timer = setInterval(() => {
    n += 1;
    dice.forEach((d, i) => { d.textContent = n >= 8 ? faces[i] : String(1 + Math.floor(Math.random() * 6)); });
    if (n >= 8) { clearInterval(timer); box.classList.remove("rolling"); }
  }, 70);
}

// ---------------------------------------------------------------------------------------------
// End of game (contract 4): the summary dialog, once per page, reopened from the prompt.
function endsNow(v) {
  return Boolean(v?.terminal && v.summary && !ctx.summaryShown && !replayMode);
}

function renderSummary() {
  const v = ctx.view;
  if (!endsNow(v)) return; // a replay offers the summary from the prompt instead
  ctx.summaryShown = true;
  // a battle dialog still open from the move before gives way to the end
  const open = $("battle-dialog");
  if (open?.open) {
    ctx.endBattle = ctx.endBattle ?? battlesOf(v).find((b) => String(b.id) === open.dataset.battle);
    open.close();
  }
  openSummary(v);
}

// The battle that ended the game, under the reason: its result and a button to see it all.
function lastBattle() {
  const b = ctx.endBattle;
  if (!b) return null;
  const see = () => { $("summary-dialog").close(); openBattle(b, false); };
  return el("p", { class: "summary-battle" },
    el("strong", { text: `${withNames(b.title || "Battle")}: ` }), withNames(b.result || ""), " ",
    el("button", { type: "button", class: "small", dataset: { endBattle: "1" }, onclick: see, text: "⚔ See the battle" }));
}

function openSummary(v) {
  const s = v.summary;
  const winners = s.winners ?? [];
  const heading = winners.length ? `${winners.map(seatName).join(" and ")} ${winners.length > 1 ? "win" : "wins"}!` : "Game over: no player won";
  const mineWon = seat !== null && winners.includes(seat);
  const scores = el("table", { class: "summary-scores" },
    el("thead", {}, el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Plays" }), el("th", { text: humanize(s.scores?.[0]?.label ?? "Score") }))),
    el("tbody", {}, ...(s.scores || []).map((row) => el("tr", { class: winners.includes(row.seat) ? "winner-row" : "" },
      el("td", {}, el("strong", { text: seatName(row.seat) }), winners.includes(row.seat) ? el("span", { class: "winner-badge", text: "winner" }) : ""),
      el("td", { text: row.role || roleOf(row.seat) || "" }),
      el("td", { text: String(row.value ?? row.score) })))));
  const stats = (s.statistics || []).filter((x) => x && x.label);
  const statBox = stats.length ? el("details", { class: "summary-stats", open: stats.length <= 14 },
    el("summary", { text: `How the game went (${stats.length})` }),
    el("dl", { class: "readable" }, ...stats.flatMap((x) => [el("dt", { text: x.label }), el("dd", { text: String(x.value) })]))) : null;
  // only the players (or the table's host) start a rematch; a spectator is offered it once made
  const mayStart = (seat !== null && token) || hostToken(tableId);
  let rematch = mayStart ? el("button", { type: "button", class: "primary", dataset: { rematch: "1" }, onclick: () => startRematch(rematch), text: "Rematch" }) : null;
  if (ctx.rematch) {
    rematch = rematch || el("button", { type: "button", class: "primary", dataset: { rematch: "1" } });
    rematch.textContent = ctx.rematch.seat === null ? "Watch the rematch" : "Join the rematch";
    rematch.onclick = () => { location.href = ctx.rematch.url; };
  }
  const suffix = location.hash;
  const replayLink = el("a", { class: "button", href: `/table/${encodeURIComponent(tableId)}/replay${suffix}`, text: "Watch the replay" });
  const content = el("div", { class: "summary-body" },
    seat !== null ? el("p", { class: `summary-you ${mineWon ? "won" : ""}`, text: mineWon ? "You won!" : winners.length ? "You did not win this time." : "" }) : null,
    s.reason ? el("p", { class: "summary-reason", text: withNames(s.reason) }) : null,
    lastBattle(),
    scores, statBox,
    el("div", { class: "dialog-actions" }, rematch, replayMode ? null : replayLink,
      el("a", { class: "button", href: "/", text: "Lobby" })));
  showDialog($("summary-dialog"), heading, content, true, "summary-title");
}

// A new table with the same game, parameters and seats; this browser keeps the new seats'
// links (a hot-seat game goes on) and goes to its own seat there.
async function startRematch(button) {
  button.disabled = true;
  try {
    // the host gets every seat's link (a hot-seat game goes on); a player its own seat's
    const host = hostToken(tableId);
    const path = `/api/tables/${encodeURIComponent(tableId)}/rematch`;
    const made = host ? await api("POST", path, undefined, host) : await api("POST", `${path}?seat=${seat}`, undefined, token);
    if (made.host_token) rememberHost(made.table.id, made.host_token);
    for (const link of made.links || []) rememberSeat(made.table.id, link.seat, link.token, `${made.table.name} — ${link.name} (seat ${link.seat + 1})`);
    const mine = (made.links || []).find((l) => l.seat === seat) ?? (seat === null ? null : made.links?.[0]);
    location.href = mine ? mine.url : made.spectator_url;
  } catch (err) {
    button.disabled = false;
    toast(`No rematch: ${err.message}`);
  }
}

// Someone started the rematch: the server offers this browser its own seat's link there (a
// spectator the spectator's): the summary's Rematch button becomes "Join the rematch", and a
// banner offers it while the summary is closed.
function offerRematch(msg) {
  if (typeof msg.url !== "string" || !msg.url.startsWith("/table/")) return;
  ctx.rematch = msg;
  const text = msg.seat === null ? "Watch the rematch" : "Join the rematch";
  const join = () => { location.href = msg.url; };
  for (const b of document.querySelectorAll("button[data-rematch]")) {
    b.disabled = false;
    b.textContent = text;
    b.onclick = join;
  }
  const bar = $("banner");
  bar.hidden = false;
  bar.className = "banner info rematch-offer";
  clear(bar).append("A rematch has started. ", el("button", { type: "button", class: "primary", dataset: { joinRematch: "1" }, onclick: join, text }));
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
  // The slider moves at once and `showPly` fetches: a click that comes while a position is
  // still loading steps on from the one asked for, not from the one still shown (quick clicks
  // on ▶ were lost when each read the slider before the previous fetch had set it).
  const go = (ply) => {
    const target = Math.max(0, Math.min(Number(slider.max), ply));
    slider.value = String(target);
    return showPly(target);
  };
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
  ctx.viewSeat = seat;
  setupViewpoints();
  await loadHistory();
  await showPly(table.ply);
}

// Whose view the replay shows: the spectator's, your own seat's, and once the game is over
// every seat's (nothing is hidden any more; the server refuses the others while it runs).
function setupViewpoints() {
  const select = $("rp-view");
  const over = ctx.table.status === "over";
  clear(select).append(el("option", { value: "", text: "Spectator" }));
  for (const s of ctx.table.seats) {
    if (!over && s.seat !== seat) continue;
    select.append(el("option", { value: String(s.seat), text: `${s.name}${roleOf(s.seat) ? ` (${roleOf(s.seat)})` : ""}` }));
  }
  select.value = ctx.viewSeat === null ? "" : String(ctx.viewSeat);
  select.onchange = async () => {
    ctx.viewSeat = select.value === "" ? null : Number(select.value);
    await loadHistory();
    await showPly(Number($("rp-slider").value));
  };
}

async function loadHistory() {
  try {
    const q = ctx.viewSeat === null ? "" : `?seat=${ctx.viewSeat}`;
    ctx.history = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/history${q}`, undefined, token);
  } catch { ctx.history = []; }
  renderMoves();
}

// Every entry of the game as a clickable line worded by the grammar's labels.
function moveText(h) {
  const who = h.seat === null || h.seat === undefined ? "Game" : seatName(h.seat);
  if (!h.action) return `${who}: a hidden move`;
  const verb = h.action.split(" ")[0];
  let what = h.action;
  if (ctx.grammar.some((g) => g.kind === verb)) {
    try { what = ctx.ui.label(h.action); } catch { /* the text itself */ }
  } else {
    // the game's own steps have no grammar: their words, names for the ids
    what = humanize(idWords(h.action.split(" ").map((w) => ctx.staticInfo?.cards?.[w]?.name ?? w).join(" ")));
  }
  return `${who}: ${idWords(what)}`;
}

function renderMoves() {
  const panel = $("moves-panel");
  const box = clear($("moves"));
  panel.hidden = !ctx.history?.length;
  (ctx.history || []).forEach((h, i) => {
    box.append(el("li", { value: i + 1 }, el("button", {
      type: "button", class: "move-link", dataset: { ply: String(i + 1) }, onclick: () => showPly(i + 1), text: moveText(h),
    })));
  });
}

function markMove(ply) {
  const box = $("moves");
  for (const b of box.querySelectorAll(".move-link.current")) b.classList.remove("current");
  const now = box.querySelector(`.move-link[data-ply="${ply}"]`);
  if (now) {
    now.classList.add("current");
    const top = now.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 24) box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  }
}

let replaySeq = 0;
async function showPly(ply) {
  const seq = ++replaySeq;
  const q = ctx.viewSeat === null || ctx.viewSeat === undefined ? "" : `?seat=${ctx.viewSeat}`;
  let r;
  try {
    r = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/replay/${ply}${q}`, undefined, token);
  } catch (err) {
    toast(err.message);
    // the slider shows what is on screen again, not the position that failed to load
    if (seq === replaySeq && typeof ctx.view?.version === "number") $("rp-slider").value = String(ctx.view.version);
    return;
  }
  if (seq !== replaySeq) return;
  $("rp-slider").value = String(ply);
  const last = ply > 0 && ctx.history ? ctx.history[ply - 1] : null;
  const what = last ? ` · last: ${moveText(last)}` : "";
  $("rp-label").textContent = `Move ${ply} of ${r.plies}${what}`;
  ctx.logLines = r.log;
  ctx.replayQuiet = ply < r.plies; // only the latest position opens battle dialogs
  ctx.view = { ...r, legal: [], version: ply, table: ctx.table, result: r.terminal ? ctx.table.result : null };
  render();
  markMove(ply);
  if (r.terminal) showBanner("Replay: the game is over at this point.", "over");
  else $("banner").hidden = true;
}

start();
