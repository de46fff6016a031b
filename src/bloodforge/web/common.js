// Shared helpers of the lobby and table pages. All user text goes through textContent (or SVG
// text nodes), never innerHTML, so names and log lines can never become markup or script.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = String(v);
    else if (k === "class") node.setAttribute("class", v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
}

function append(node, children) {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export async function api(method, path, body, token) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error && data.error.message) || `${res.status} ${res.statusText}`);
    err.code = data && data.error ? data.error.code : `http/${res.status}`;
    err.status = res.status;
    throw err;
  }
  return data;
}

export function toast(message, kind = "error") {
  let box = document.getElementById("toasts");
  if (!box) { box = el("div", { id: "toasts" }); document.body.append(box); }
  const t = el("div", { class: `toast ${kind}`, role: "status", text: message });
  box.append(t);
  setTimeout(() => t.remove(), kind === "error" ? 6000 : 3000);
}

// Seat secrets are kept in this browser so that "your tables" can be resumed from the lobby.
const KEY = "bloodforge.seats";

// One entry per table and seat: with two human seats in one browser (hot seat, tests) each link
// keeps its own seat. (Entries of older versions are keyed by the table id alone.)
export function rememberSeat(tableId, seat, token, label) {
  const all = loadSeats();
  if (all[tableId]?.seat === seat) delete all[tableId];
  all[`${tableId}#${seat}`] = { table: tableId, seat, token, label, at: Date.now() };
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function loadSeats() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch { return {}; }
}

export function seatLink(tableId, seat, token) {
  return `/table/${encodeURIComponent(tableId)}#seat=${seat}&token=${encodeURIComponent(token)}`;
}

export function wsUrl(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path}`;
}

export function titleCase(id) {
  return String(id || "").replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}
