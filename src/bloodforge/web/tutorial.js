// Learn to play (issue 18): the coach panel of a table created from a game's tutorial.
//
// The server knows whether a table is a tutorial (its scenario is the tutorial's) and which step
// the player is on (the seat's own actions in the table's history, matched in order): this
// module asks GET /api/tables/{id}/tutorial after every change, shows the step's text and the
// rule it teaches, highlights what to click (board cells, pieces, hand items, action buttons:
// class .tutorial-highlight, in click order as data-tutorial-order) and says when the player
// did something else. After the last step the game simply goes on against the AI.
// table.js calls tutorial(ctx) at the end of every render; nothing else of the page is touched.
import { api, clear, el } from "/static/common.js";

const $ = (id) => document.getElementById(id);

const coach = {
  started: false, off: false, info: null, progress: null, version: -1, seq: 0, shown: -1, shownSeq: 0,
  hidden: false, more: false, dismissed: false, ctx: null, observer: null, scheduled: false, drawn: "",
};

export function tutorial(ctx) {
  coach.ctx = ctx;
  if (coach.off || ctx.replayMode || !ctx.view || !ctx.table) return;
  if (!coach.started) {
    coach.started = true;
    if (!ctx.table.from_scenario) { coach.off = true; return; }
    document.head.append(el("link", { rel: "stylesheet", href: "/static/tutorial.css" }));
  }
  if (ctx.view.version !== coach.version) {
    coach.version = ctx.view.version;
    refresh(ctx);
  }
  draw();
}

// Responses may come back slower than the AI plays: the newest answer for the newest version
// wins, and an older answer is still shown if nothing newer has arrived (never starved).
async function refresh(ctx) {
  const seq = ++coach.seq;
  const version = ctx.view.version;
  const q = ctx.seat === null ? "" : `?seat=${ctx.seat}`;
  let data;
  try {
    data = await api("GET", `/api/tables/${encodeURIComponent(ctx.tableId)}/tutorial${q}`, undefined, ctx.token);
  } catch (err) {
    if (err.status === 404) { coach.off = true; clear(panel()).remove(); return; }
    return; // a network hiccup: the next change asks again
  }
  if (version < (coach.shown ?? -1) || (version === coach.shown && seq < coach.shownSeq)) return;
  coach.shown = version;
  coach.shownSeq = seq;
  coach.info = data;
  coach.progress = data.step === null ? null : { step: data.step, off: data.off_script, possible: data.possible };
  document.body.dataset.tutorialStep = data.step === null ? "" : String(data.step);
  draw();
}

// The coach is a strip above the board: the side column keeps the prompt and every action in
// view, and on a phone the strip comes first on the screen, above the players and the board.
function panel() {
  let box = $("coach");
  if (!box) {
    box = el("section", { id: "coach", class: "coach", "aria-live": "polite", "aria-label": "Learn to play" });
    const board = $("board");
    if (board) board.before(box); else document.body.prepend(box);
  }
  return box;
}

function label(text) {
  try { return coach.ctx.ui?.label(text) ?? text; } catch { return text; }
}

function myTurn() {
  const v = coach.ctx.view;
  return coach.ctx.seat !== null && (v.actors ?? [v.current_player]).includes(coach.ctx.seat) && !v.terminal;
}

// What the panel shows, as one string: a render that changes none of it leaves the panel's nodes
// alone. Rebuilt on every state message, the "Close the guide" button under the pointer could be
// replaced between a click's press and its release, and the click then went to the panel.
function drawnKey() {
  const info = coach.info;
  const p = coach.progress;
  const at = p ? p.step : null;
  const shown = [info.title, info.steps.length, at, coach.hidden, coach.dismissed];
  if (coach.hidden) return JSON.stringify(shown);
  if (at === null) return JSON.stringify([shown, info.intro]);
  if (at >= info.steps.length) return JSON.stringify([shown, info.outro]);
  const step = info.steps[at];
  const labels = [p.off ? label(p.off) : "", step.expect ? label(step.expect) : ""];
  return JSON.stringify([shown, info, p, coach.more, myTurn(), labels]);
}

function draw() {
  const info = coach.info;
  if (!info || coach.off) return;
  const key = drawnKey();
  if (key === coach.drawn && $("coach")) return;
  coach.drawn = key;
  const box = clear(panel());
  const steps = info.steps;
  const p = coach.progress;
  const n = steps.length;
  const at = p ? p.step : null;
  box.hidden = coach.dismissed;
  box.dataset.step = at === null ? "" : String(at);
  box.dataset.steps = String(n);
  const finished = at !== null && at >= n;
  const head = el("div", { class: "coach-head" },
    el("strong", { text: info.title }),
    el("span", { class: "coach-count", text: at === null ? `${n} steps` : finished ? "Guide complete" : `Step ${at + 1} of ${n}` }),
    el("span", { class: "spacer" }),
    el("button", { type: "button", class: "small coach-toggle", "aria-expanded": String(!coach.hidden), onclick: () => { coach.hidden = !coach.hidden; draw(); }, text: coach.hidden ? "Show guide" : "Hide guide" }));
  box.append(head);
  if (coach.hidden) { highlight([]); return; }
  if (at === null) {
    // a spectator: the guide's steps, no progress
    box.append(el("p", { class: "coach-text", text: info.intro }));
    highlight([]);
    return;
  }
  if (finished) {
    box.classList.add("coach-done");
    box.append(el("p", { class: "coach-text", text: info.outro }),
      el("button", { type: "button", class: "primary coach-close", onclick: () => { coach.dismissed = true; draw(); }, text: "Close the guide" }));
    highlight([]);
    return;
  }
  box.classList.remove("coach-done");
  const step = steps[at];
  if (at === 0) box.append(el("p", { class: "coach-intro", text: info.intro }));
  head.querySelector(".coach-count").after(el("ol", { class: "coach-dots", "aria-hidden": "true" },
    ...steps.map((_, i) => el("li", { class: i < at ? "done" : i === at ? "now" : "" }))));
  box.append(el("p", { class: "coach-text", text: step.text }));
  if (step.rule) {
    box.append(el("p", { class: "coach-rule", text: step.rule }));
    // phones show the rule (and the intro) on request only, so the board stays on the first screen
    box.append(el("button", { type: "button", class: "small coach-more-toggle", "aria-expanded": String(coach.more), onclick: () => { coach.more = !coach.more; draw(); }, text: coach.more ? "Hide the rule" : "Why? The rule" }));
  }
  box.classList.toggle("coach-more", coach.more);
  const mine = myTurn();
  if (p.off) {
    const expected = step.expect ? ` The guide's move is: ${label(step.expect)}.` : "";
    box.append(el("p", { class: "coach-note", text: `You played “${label(p.off)}” instead.${expected}` }));
  }
  if (mine && p.possible === false) {
    box.append(el("p", { class: "coach-note", text: "After that move the guide's next step is no longer possible. The game goes on as a real game against the AI." }),
      el("button", { type: "button", class: "coach-close", onclick: () => { coach.dismissed = true; draw(); }, text: "Close the guide" }));
    highlight([]);
    return;
  }
  if (!mine) box.append(el("p", { class: "coach-wait muted", text: "The AI is playing; the guide goes on when it is your turn." }));
  highlight(mine ? step.highlight.concat(step.expect ? [`exact:${step.expect}`] : []) : []);
}

// -- highlights ---------------------------------------------------------------------------------
// The board, the hand and the menus are redrawn by their own code at any time (a click that
// picks a piece repaints the board): an observer puts the highlights back after every redraw.
let wanted = [];

function highlight(targets) {
  wanted = targets;
  document.body.classList.toggle("tutorial-on", targets.length > 0);
  if (!coach.observer) {
    coach.observer = new MutationObserver(() => {
      if (coach.scheduled) return;
      coach.scheduled = true;
      requestAnimationFrame(() => { coach.scheduled = false; apply(); });
    });
    coach.observer.observe(document.body, { childList: true, subtree: true });
  }
  apply();
}

function selectorsOf(target) {
  const i = target.indexOf(":");
  const kind = target.slice(0, i);
  const name = CSS.escape(target.slice(i + 1));
  const raw = target.slice(i + 1);
  switch (kind) {
    case "cell": return [`#board [data-cell="${name}"]`];
    case "unit": return [`#board [data-unit="${name}"]`];
    case "hand": return [`#hand [data-hand="${name}"]`];
    case "action": return raw.includes(" ")
      ? [`[data-action="${name}"]`]
      : [`#actions [data-action="${name}"]`, `#actions [data-action^="${CSS.escape(`${raw} `)}"]`, `#menu [data-action^="${CSS.escape(`${raw} `)}"]`, `#confirm [data-action="${name}"]`];
    case "exact": return [`#actions [data-action="${name}"]`, `#menu [data-action="${name}"]`, `#confirm [data-action="${name}"]`];
    default: return [];
  }
}

function apply() {
  const order = new Map(); // node -> its first place in the click order (99: the action's own button)
  wanted.forEach((target, i) => {
    for (const sel of selectorsOf(target)) {
      for (const node of document.querySelectorAll(sel)) {
        if (node.closest("[hidden]")) continue; // a closed confirmation or menu keeps its old buttons
        if (!order.has(node)) order.set(node, target.startsWith("exact:") ? 99 : i);
      }
    }
  });
  for (const [node, i] of order) {
    if (!node.classList.contains("tutorial-highlight")) node.classList.add("tutorial-highlight");
    if (node.dataset.tutorialOrder !== String(i)) node.dataset.tutorialOrder = String(i);
  }
  const keep = new Set(order.keys());
  for (const node of document.querySelectorAll(".tutorial-highlight")) {
    if (!keep.has(node)) { node.classList.remove("tutorial-highlight"); delete node.dataset.tutorialOrder; }
  }
  // a highlighted action group is opened, so its button can be seen
  for (const node of keep) node.closest?.("details")?.setAttribute("open", "");
}
