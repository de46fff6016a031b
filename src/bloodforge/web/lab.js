// The designer's workbench (/lab): a game's content as forms generated from the JSON Schema of
// its data files, saved as named variants (the server validates with the engine's own models
// and answers 422 with field paths, shown beside the fields), experiments (an A/B, a sweep of one
// number chosen by clicking it in the form, a matchup of agents with an optional SPRT) with live
// progress, the result in words and tables, and the lab report's plots (PNGs from the server). On the lobby page this file only shows the link to /lab
// when the server has the workbench on.
import { el, clear, humanize, wsUrl } from "/static/common.js";

const TOKEN_KEY = "bloodforge.labToken";
const state = { token: sessionStorage.getItem(TOKEN_KEY) || "", game: "", base: null, schemas: {}, content: null,
  variant: null, experiment: null, ws: null };

async function call(method, path, body) {
  const headers = { "Accept": "application/json", "Authorization": `Bearer ${state.token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error && data.error.message) || `The server refused (${res.status})`);
    err.status = res.status;
    err.errors = (data && data.error && data.error.details && data.error.details.errors) || [];
    throw err;
  }
  return data;
}

// -- JSON Schema -> form -------------------------------------------------------------------------
function resolve(schema, defs) {
  let s = schema || {};
  for (let i = 0; i < 10 && s.$ref; i++) s = defs[s.$ref.split("/").pop()] || {};
  if (s.anyOf) {
    const real = s.anyOf.filter((x) => x.type !== "null");
    if (real.length === 1) return { ...resolve(real[0], defs), description: s.description || real[0].description };
  }
  return s;
}

function branchFor(schema, value, defs) {
  // A tagged union (oneOf/anyOf of objects): the branch whose constant tag the value carries.
  const options = schema.oneOf || schema.anyOf;
  if (!options || !value || typeof value !== "object") return null;
  for (const opt of options) {
    const r = resolve(opt, defs);
    const props = r.properties || {};
    const ok = Object.entries(props).some(([k, p]) => p.const !== undefined && value[k] === p.const);
    if (ok) return r;
  }
  return null;
}

function label(key) { return humanize(String(key).replace(/^\d+$/, (n) => `#${Number(n) + 1}`)); }

function itemLabel(key, value) {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const name = value.name || value.title || value.id;
    if (name) return `${label(key)}: ${humanize(name)}`;
  }
  return label(key);
}

function setAt(path, value) {
  let node = state.content;
  for (let i = 0; i < path.length - 1; i++) node = node[path[i]];
  node[path[path.length - 1]] = value;
}

function parseValue(text, kind) {
  const t = text.trim();
  if ((kind === "integer" || kind === "number") && /^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (kind === "integer" || kind === "number") return t; // the server names what is wrong
  return text;
}

function field(path, key, value, schema, defs) {
  const s = resolve(schema, defs);
  const dataPath = path.join(".");
  const tip = s.description || "";
  if (value && typeof value === "object") {
    const isList = Array.isArray(value);
    const sub = branchFor(s, value, defs) || s;
    const box = el("details", { "data-path": dataPath, open: path.length <= 1 ? true : null },
      el("summary", { text: isList ? `${label(key)} (${value.length})` : itemLabel(key, value), title: tip }));
    if (isList) {
      const itemSchema = sub.items || (sub.prefixItems ? null : {});
      value.forEach((v, i) => {
        const is = itemSchema || (sub.prefixItems && sub.prefixItems[i]) || {};
        const node = field([...path, i], i, v, is, defs);
        if (!sub.prefixItems) {
          const remove = el("button", { type: "button", class: "lab-remove", "data-path": [...path, i].join("."),
            text: "Remove", title: "Remove this entry from the list",
            onclick: (ev) => { ev.preventDefault(); value.splice(i, 1); rerender(); } });
          // in a group's title line, so it shows while the group is closed (it does not toggle it)
          if (node.tagName === "DETAILS") node.querySelector("summary").append(remove); else node.append(remove);
        }
        box.append(node);
      });
      if (!sub.prefixItems) {
        box.append(el("button", { type: "button", class: "lab-add", "data-path": dataPath, text: "Add one",
          title: "Add an entry (a copy of the last one; give it its own id)",
          onclick: () => { value.push(newItem(value, resolve(itemSchema || {}, defs))); rerender(); } }));
      }
    } else {
      const props = sub.properties || {};
      for (const [k, v] of Object.entries(value)) box.append(field([...path, k], k, v, props[k] || {}, defs));
    }
    return box;
  }
  const kind = s.type || (typeof value === "number" ? "number" : typeof value === "boolean" ? "boolean" : "string");
  const row = el("label", { class: "lab-field", "data-path": dataPath, title: tip },
    el("span", { class: "lab-label", text: label(key) }));
  let input;
  if (kind === "boolean" || typeof value === "boolean") {
    input = el("input", { type: "checkbox", "data-path": dataPath });
    input.checked = Boolean(value);
    input.addEventListener("change", () => setAt(path, input.checked));
  } else if (s.enum) {
    input = el("select", { "data-path": dataPath }, s.enum.map((o) => el("option", { value: o, text: humanize(o) })));
    input.value = value;
    input.addEventListener("change", () => setAt(path, input.value));
  } else {
    input = el("input", { type: "text", "data-path": dataPath, inputmode: kind === "string" ? null : "decimal" });
    input.value = value === null || value === undefined ? "" : String(value);
    if (typeof value === "number") input.addEventListener("focus", () => chooseSweep(dataPath, input));
    input.addEventListener("input", () => setAt(path, input.value === "" && value === null ? null
      : parseValue(input.value, kind)));
  }
  row.append(input, el("span", { class: "lab-field-error" }));
  return row;
}

// A new list entry: a copy of the last one (then the designer changes what differs), else the
// schema's default or an empty value of its type.
function newItem(list, schema) {
  if (list.length) return structuredClone(list[list.length - 1]);
  if (schema.default !== undefined) return structuredClone(schema.default);
  return { integer: 0, number: 0, boolean: false, object: {}, array: [] }[schema.type] ?? "";
}

// Draw the form again after a list changed, keeping open the groups that were open.
function rerender() {
  const open = [...document.querySelectorAll("#lab-form details[open]")].map((d) => d.dataset.path);
  renderForm();
  for (const p of open) {
    const d = document.querySelector(`#lab-form details[data-path="${CSS.escape(p)}"]`);
    if (d) d.open = true;
  }
}

function renderForm() {
  const root = clear(document.getElementById("lab-form"));
  for (const [name, value] of Object.entries(state.content)) {
    const schema = state.schemas[name] || {};
    root.append(field([name], name, value, schema, schema.$defs || {}));
  }
}

function showErrors(errors, message) {
  document.querySelectorAll(".lab-field.invalid").forEach((n) => n.classList.remove("invalid"));
  document.querySelectorAll(".lab-field-error").forEach((n) => { n.textContent = ""; });
  const box = clear(document.getElementById("lab-errors"));
  if (!errors.length && !message) return;
  const unplaced = [];
  for (const e of errors) {
    // pydantic puts a union's tag into the path ("attack.line.max"): try the path, then the
    // path without one of its steps, then shorter paths (the group the error is about)
    const parts = String(e.path || "").split(".");
    const candidates = [parts, ...parts.map((_, i) => parts.filter((__, j) => j !== i))];
    for (let n = parts.length - 1; n > 0; n--) candidates.push(parts.slice(0, n));
    let target = null;
    for (const c of candidates) {
      const p = CSS.escape(c.join("."));
      target = document.querySelector(`.lab-field[data-path="${p}"]`);
      if (target) break;
    }
    if (target) {
      target.classList.add("invalid");
      target.querySelector(".lab-field-error").textContent = e.message;
      for (let d = target.parentElement; d; d = d.parentElement) if (d.tagName === "DETAILS") d.open = true;
    } else unplaced.push(e);
  }
  const n = errors.length;
  box.append(el("p", { text: n ? `Not saved: ${n} value${n === 1 ? " is" : "s are"} not valid.` : `Not saved: ${message}` }));
  for (const e of unplaced) box.append(el("p", { text: `${e.path ? `${pathWords(e.path)}: ` : ""}${e.message}` }));
  const first = document.querySelector(".lab-field.invalid input, .lab-field.invalid select");
  if (first) first.focus();
}

// -- content and variants ----------------------------------------------------------------------
async function loadGame(game) {
  state.game = game;
  const data = await call("GET", `/api/lab/games/${encodeURIComponent(game)}/content`);
  if (state.game !== game) return; // another game was picked meanwhile
  state.base = data.files;
  state.schemas = data.schemas;
  state.content = structuredClone(data.files);
  renderForm();
  showErrors([], "");
  const start = document.getElementById("lab-start");
  clear(start).append(el("option", { value: "", text: "the published content" }));
  const list = await call("GET", `/api/lab/variants?game=${encodeURIComponent(game)}`);
  for (const v of list.variants) start.append(el("option", { value: v.id, text: `${v.name} (version ${v.version})` }));
}

async function startFrom(id) {
  if (!id) { state.content = structuredClone(state.base); renderForm(); return; }
  const v = await call("GET", `/api/lab/variants/${id}`);
  state.content = structuredClone(v.content);
  document.getElementById("variant-name").value = v.name;
  renderForm();
}

function describeChange(c) {
  const show = (x) => (x === null || x === undefined ? "nothing" : typeof x === "object" ? "(a list or group)" : String(x));
  return `${pathWords(c.path)}: ${show(c.old)} → ${show(c.new)}`;
}

// A JSON path in a designer's words: "content.units[id=soldier].max_hp" -> "Units › Soldier › Max hp"
// (the single file of a one-file game is not named).
function pathWords(path) {
  const steps = String(path).replace(/\]/g, "").split(/[.[]/).filter(Boolean)
    .map((s) => (s.includes("=") ? s.split("=").slice(1).join("=") : /^\d+$/.test(s) ? `#${Number(s) + 1}` : s));
  if (state.base && Object.keys(state.base).length === 1 && steps[0] === Object.keys(state.base)[0]) steps.shift();
  return steps.map((s) => humanize(s)).join(" › ") || "content";
}

async function save(ev) {
  ev.preventDefault();
  const name = document.getElementById("variant-name").value.trim();
  try {
    const start = document.getElementById("lab-start").value;
    const body = { game: state.game, name, content: state.content };
    if (start) body.parent = Number(start);
    const saved = await call("POST", "/api/lab/variants", body);
    showErrors([], "");
    const full = await call("GET", `/api/lab/variants/${saved.id}`);
    state.variant = full;
    const info = clear(document.getElementById("variant-info"));
    info.append(el("p", { class: "lab-saved", role: "status", text: `Saved “${full.name}”, version ${full.version}.` }));
    info.append(el("h3", { text: "Changed from the published content" }),
      el("ul", { class: "lab-diff" }, full.diff_base.length ? full.diff_base.map((c) => el("li", { text: describeChange(c) }))
        : [el("li", { text: "no change" })]));
    if (full.diff_parent) {
      info.append(el("h3", { text: "Changed from the version it was edited from" }),
        el("ul", { class: "lab-diff" }, full.diff_parent.map((c) => el("li", { text: describeChange(c) }))));
    }
    const names = Object.keys(full.content);
    info.append(el("p", {}, ...names.map((f) => el("button", { type: "button", class: "lab-download",
      onclick: () => download(`/api/lab/variants/${full.id}/files/${encodeURIComponent(f)}`, `${f}.json`),
      text: `Download ${humanize(f)} data file` }))));
    info.append(el("p", {}, el("button", { type: "button", id: "playtest", onclick: () => playtest(full.id),
      text: "Playtest: open a table with this variant (you against the AI)" })));
    document.getElementById("experiment").hidden = false;
  } catch (err) {
    showErrors(err.errors || [], err.message);
  }
}

async function playtest(id) {
  try {
    const created = await call("POST", `/api/lab/variants/${id}/playtest`, {});
    location.assign(created.links.length ? created.links[0].url : created.spectator_url);
  } catch (err) {
    document.getElementById("variant-info").append(el("p", { class: "lab-error", role: "alert", text: err.message }));
  }
}

async function download(path, filename) {
  const res = await fetch(path, { headers: { "Authorization": `Bearer ${state.token}` } });
  const blob = await res.blob();
  const a = el("a", { href: URL.createObjectURL(blob), download: filename });
  document.body.append(a);
  a.click();
  a.remove();
}

// -- experiments -------------------------------------------------------------------------------
// The kind picked shows its own fields; a sweep's value is the number last clicked in the form.
function showKind() {
  const kind = document.getElementById("exp-kind").value;
  document.getElementById("sweep-fields").hidden = kind !== "sweep";
  document.getElementById("matchup-fields").hidden = kind !== "matchup";
  document.getElementById("ab-games-label").textContent = kind === "matchup" ? "Games per pair" : "Games per side";
  const agents = document.getElementById("ab-agents");
  if (kind === "matchup" && !agents.value.includes(",")) agents.value = "random, greedy";
}

function chooseSweep(path, input) {
  document.querySelectorAll(".lab-sweep-chosen").forEach((n) => n.classList.remove("lab-sweep-chosen"));
  input.classList.add("lab-sweep-chosen");
  const previous = document.getElementById("sweep-path").value;
  document.getElementById("sweep-path").value = path;
  document.getElementById("sweep-what").textContent = `Value to sweep: ${pathWords(path)} (now ${input.value}).`;
  if (previous === path) return;
  const v = Number(input.value);
  if (!Number.isFinite(v)) return;
  const whole = Number.isInteger(v);
  const step = whole ? Math.max(1, Math.round(Math.abs(v) / 10)) : Math.abs(v) / 10 || 0.1;
  document.getElementById("sweep-start").value = String(v);
  document.getElementById("sweep-step").value = String(step);
  document.getElementById("sweep-stop").value = String(whole ? v + 2 * step : +(v + 2 * step).toFixed(6));
}

function experimentBody() {
  const kind = document.getElementById("exp-kind").value;
  const agents = document.getElementById("ab-agents").value.split(",").map((a) => a.trim()).filter(Boolean);
  const body = { kind, game: state.game, variant: state.variant.id, agents,
    games: Number(document.getElementById("ab-games").value), seed: Number(document.getElementById("ab-seed").value) };
  if (kind === "sweep") {
    const path = document.getElementById("sweep-path").value;
    if (!path) throw new Error("Click the number to sweep in the form above first.");
    body.sweep = { path, start: Number(document.getElementById("sweep-start").value),
      stop: Number(document.getElementById("sweep-stop").value), step: Number(document.getElementById("sweep-step").value) };
  }
  if (kind === "matchup") {
    body.on_base = document.getElementById("matchup-on").value === "base";
    if (document.getElementById("sprt-on").checked) {
      body.sprt = { p0: Number(document.getElementById("sprt-p0").value), p1: Number(document.getElementById("sprt-p1").value) };
    }
  }
  return body;
}

async function runAb(ev) {
  ev.preventDefault();
  if (!state.variant) return;
  const status = document.getElementById("ab-status");
  clear(document.getElementById("ab-result"));
  clearPlots();
  try {
    const exp = await call("POST", "/api/lab/experiments", experimentBody());
    state.experiment = exp.id;
    status.textContent = "Starting…";
    document.getElementById("ab-cancel").hidden = false;
    watch(exp.id);
  } catch (err) {
    status.textContent = err.message;
  }
}

function watch(id) {
  const progress = document.getElementById("ab-progress");
  progress.hidden = false;
  const ws = new WebSocket(wsUrl(`/ws/lab/experiments/${encodeURIComponent(id)}`));
  state.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({ token: state.token }));
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.error) { document.getElementById("ab-status").textContent = msg.error.message; return; }
    progress.max = msg.total || 1;
    progress.value = msg.done || 0;
    const status = document.getElementById("ab-status");
    if (msg.status === "running" || msg.status === "queued") status.textContent = `${msg.done} of ${msg.total} games played`;
    else finish(msg);
  };
}

function pct(r) { return `${r.rate.toFixed(2)} [${r.low.toFixed(2)}, ${r.high.toFixed(2)}]`; }

function pText(p) { return p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`; }

function diffText(d) {
  return `${d.diff >= 0 ? "+" : ""}${d.diff.toFixed(2)} [${d.low.toFixed(2)}, ${d.high.toFixed(2)}], ${pText(d.p_value)}`;
}

function table(cls, headings, rows) {
  return el("table", { class: `lab-table ${cls}` }, el("thead", {}, el("tr", {}, headings.map((h) => el("th", { text: h })))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => el("td", { text: c }))))));
}

// The game's own statistics, one column per variant (or value).
function statsTable(variants, names) {
  const stats = [...new Set(variants.flatMap((v) => Object.keys(v.stats || {})))].sort().slice(0, 40);
  if (!stats.length) return [];
  return [el("h3", { text: "The game's own statistics (mean per game)" }),
    table("lab-stats", ["Statistic", ...names], stats.map((n) => [humanize(n.replace(/\./g, " ")),
      ...variants.map((v) => ((v.stats || {})[n] ?? 0).toFixed(2))]))];
}

function finish(exp) {
  document.getElementById("ab-cancel").hidden = true;
  const status = document.getElementById("ab-status");
  const out = clear(document.getElementById("ab-result"));
  if (exp.status === "cancelled") { status.textContent = "Cancelled."; return; }
  if (exp.status === "failed") { status.textContent = `The experiment failed: ${exp.error}`; return; }
  status.textContent = `Done: ${exp.done} games.`;
  const s = exp.summary;
  const roles = s.seat_roles || [];
  const seatName = (k) => roles[Number(k)] || `Seat ${Number(k) + 1}`;
  out.append(el("p", { class: "lab-sentence", text: exp.sentence }));
  if (s.kind === "matchup") finishMatchup(out, s, seatName);
  else if (s.sweep) finishSweep(out, s, seatName);
  else finishAb(out, s, seatName);
  out.append(el("button", { type: "button", text: "Download the experiment (for bloodforge lab run)",
    onclick: () => download(`/api/lab/experiments/${exp.id}/config`, `experiment-${exp.id}.json`) }));
  showPlots(exp.id);
}

function finishAb(out, s, seatName) {
  const seats = Object.keys(s.variants[0].seats);
  const rows = s.variants.map((v) => [v.name === "base" ? "Published" : v.name, String(v.games),
    ...seats.map((k) => pct(v.seats[k])), String(v.draws)]);
  const last = s.variants[s.variants.length - 1];
  if (last.vs_first) rows.push(["Difference (paired)", "", ...seats.map((k) => diffText(last.vs_first[k])), ""]);
  out.append(table("lab-rates", ["Content", "Games", ...seats.map((k) => `${seatName(k)} win rate`), "No sole winner"], rows));
  out.append(...statsTable([s.variants[0], last], ["Published", "Variant"]));
}

function finishSweep(out, s, seatName) {
  const seats = Object.keys(s.variants[0].seats);
  const n = s.sweep.values.length;
  const points = s.variants.slice(-n);
  const base = s.variants[0];
  const rows = [["Published", String(base.games), ...seats.map((k) => pct(base.seats[k])), ...seats.map(() => ""),
    String(base.draws), base.mean_plies.toFixed(1)]];
  points.forEach((v, i) => rows.push([String(s.sweep.values[i]), String(v.games), ...seats.map((k) => pct(v.seats[k])),
    ...seats.map((k) => (v.vs_first ? diffText(v.vs_first[k]) : "")), String(v.draws), v.mean_plies.toFixed(1)]));
  out.append(el("h3", { text: `${s.sweep.label}: win rates by value (95% intervals), each against the published content` }),
    table("lab-sweep", [s.sweep.label, "Games", ...seats.map((k) => `${seatName(k)} win rate`),
      ...seats.map((k) => `${seatName(k)} difference`), "No sole winner", "Mean moves"], rows));
  out.append(...statsTable([base, ...points], ["Published", ...s.sweep.values.map(String)]));
}

function sprtText(p) {
  const t = p.sprt;
  if (!t) return "";
  if (t.decision === "H1") return `Stronger (at least ${t.p1})`;
  if (t.decision === "H0") return `Not stronger (at most ${t.p0})`;
  return "Undecided";
}

function agentWords(label) {
  const [name, ...opts] = label.split(":");
  const shown = name === "mcts" ? "MCTS" : humanize(name);
  return opts.length ? `${shown} (${opts.map((o) => o.replace(/_/g, " ").replace("=", " ")).join(", ")})` : shown;
}

function finishMatchup(out, s, seatName) {
  const sprt = s.pairs.some((p) => p.sprt);
  out.append(table("lab-pairs", ["First agent", "Second agent", "Games", "First agent's score", "By seat of the first agent",
    ...(sprt ? ["Sequential test"] : [])], s.pairs.map((p) => [agentWords(p.a), agentWords(p.b), String(p.games), pct(p),
    Object.entries(p.a_by_seat).map(([k, r]) => `${seatName(k)}: ${pct(r)}`).join("; "),
    ...(sprt ? [sprtText(p)] : [])])));
  out.append(table("lab-seats", ["Seat", "Win rate of whoever sat there"],
    Object.entries(s.seats || {}).map(([k, r]) => [seatName(k), pct(r)])));
  out.append(...statsTable(s.pairs, s.pairs.map((p) => `${agentWords(p.a)} against ${agentWords(p.b)}`)));
}

function clearPlots() {
  clear(document.getElementById("ab-plots"));
}

function dataUrl(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

// The lab report's plots, drawn by the server (matplotlib) as PNGs; without it the page says so.
async function showPlots(id) {
  clearPlots();
  const box = document.getElementById("ab-plots");
  let list;
  try {
    list = await call("GET", `/api/lab/experiments/${encodeURIComponent(id)}/plots`);
  } catch (err) {
    box.append(el("p", { class: "lab-plots-missing muted", text: err.message }));
    return;
  }
  for (const plot of list.plots) {
    const res = await fetch(plot.url, { headers: { "Authorization": `Bearer ${state.token}` } });
    if (!res.ok) continue;
    const url = await dataUrl(await res.blob()); // the page's CSP allows data: images, not blob:
    box.append(el("figure", { class: "lab-plot", "data-plot": plot.name },
      el("figcaption", { text: plot.title }), el("img", { src: url, alt: plot.title })));
  }
}

async function cancel() {
  if (!state.experiment) return;
  try { await call("DELETE", `/api/lab/experiments/${state.experiment}`); } catch (err) {
    document.getElementById("ab-status").textContent = err.message;
  }
}

// -- start ---------------------------------------------------------------------------------------
async function open() {
  const errBox = document.getElementById("login-error");
  try {
    const data = await call("GET", "/api/lab/games");
    sessionStorage.setItem(TOKEN_KEY, state.token);
    document.getElementById("login").hidden = true;
    document.getElementById("bench").hidden = false;
    const select = clear(document.getElementById("lab-game"));
    for (const g of data.games) select.append(el("option", { value: g.id, text: g.name }));
    await loadGame(select.value);
  } catch (err) {
    errBox.textContent = err.status === 401 ? "That is not the operator token." : err.message;
  }
}

function initLab() {
  document.getElementById("login-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    state.token = document.getElementById("token").value.trim();
    open();
  });
  document.getElementById("lab-game").addEventListener("change", (ev) => {
    if (ev.target.value !== state.game) loadGame(ev.target.value); // the same game again keeps the edits
  });
  document.getElementById("lab-start").addEventListener("change", (ev) => startFrom(ev.target.value));
  document.getElementById("save-form").addEventListener("submit", save);
  document.getElementById("ab-form").addEventListener("submit", runAb);
  document.getElementById("ab-cancel").addEventListener("click", cancel);
  document.getElementById("exp-kind").addEventListener("change", showKind);
  if (state.token) open();
}

async function initLobbyLink() {
  const link = document.getElementById("lab-link");
  if (!link) return;
  try {
    const res = await fetch("/lab", { method: "GET" });
    link.hidden = !res.ok;
  } catch { link.hidden = true; }
}

if (document.body.dataset.page === "lab") initLab();
else initLobbyLink();
