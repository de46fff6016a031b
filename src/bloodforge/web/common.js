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

// Makes `nodes` the children of `parent` in that order, moving only the ones out of place and
// removing the rest: a kept node is not taken out and put back (each move restyles and repaints
// it), and the order never depends on the updates that came before (a reload draws the same).
export function inOrder(parent, nodes) {
  const wanted = new Set(nodes);
  for (const node of [...parent.children]) if (!wanted.has(node)) node.remove();
  let at = parent.firstChild;
  for (const node of nodes) {
    if (at === node) at = node.nextSibling;
    else parent.insertBefore(node, at);
  }
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

/** The creator's host token per table (it makes new links for a seat and starts a rematch
 * with every seat's link), kept in this browser. */
const HOST_KEY = "bloodforge.hosts";
export function rememberHost(tableId, token) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem(HOST_KEY) || "{}") || {}; } catch { all = {}; }
  all[tableId] = token;
  localStorage.setItem(HOST_KEY, JSON.stringify(all));
}

export function hostToken(tableId) {
  try { return (JSON.parse(localStorage.getItem(HOST_KEY) || "{}") || {})[tableId] || null; } catch { return null; }
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

// ---------------------------------------------------------------------------------------------
// Descriptions (issue 18, contract 2): `static_info()["cards"]` = {id: {name, kind, text,
// stats: [[label, value]]}}. Any element with `data-card="<id>"` shows its card on hover, tap
// and keyboard focus; the same card is drawn in the "Cards" list.

// The card as a small block of text (name, kind, text, stats); nothing for an unknown id.
export function cardNode(card, id = "") {
  if (!card) return null;
  const stats = Array.isArray(card.stats) ? card.stats.filter((s) => Array.isArray(s) && s.length >= 2) : [];
  return el("div", { class: `card-body${card.kind ? ` card-kind-${String(card.kind).replace(/\W+/g, "-")}` : ""}`, dataset: { cardId: id } },
    el("div", { class: "card-head" }, el("strong", { class: "card-name", text: card.name ?? titleCase(id) }),
      card.kind ? el("span", { class: "card-kind", text: titleCase(card.kind) }) : null),
    card.text ? el("div", { class: "card-text", text: card.text }) : null,
    stats.length ? el("dl", { class: "card-stats" }, ...stats.flatMap(([k, v]) => [el("dt", { text: String(k) }), el("dd", { text: String(v) })])) : null);
}

// The first argument of an action text that names a card (its id), else null.
export function cardIn(text, cards) {
  if (!cards) return null;
  for (const word of String(text).split(" ").slice(1)) if (Object.prototype.hasOwnProperty.call(cards, word)) return word;
  return null;
}

// One tooltip for the whole page, following hover, focus and taps on [data-card].
export function installCardTips(tip, getCards) {
  let current = null;
  let hideTimer = null;
  let pinnedUntil = 0; // a tapped card stays a while, whatever the redraws do
  const show = (target) => {
    const id = target?.dataset?.card ?? target?.getAttribute?.("data-card");
    const node = cardNode(getCards()?.[id], id);
    if (!node) return;
    clearTimeout(hideTimer);
    current = target;
    clear(tip).append(node);
    tip.hidden = false;
    const box = target.getBoundingClientRect();
    const w = Math.min(320, window.innerWidth - 16);
    tip.style.maxWidth = `${w}px`;
    const left = Math.max(8, Math.min(box.left, window.innerWidth - tip.offsetWidth - 8));
    const below = box.bottom + 6 + tip.offsetHeight < window.innerHeight;
    tip.style.left = `${left}px`;
    tip.style.top = `${below ? box.bottom + 6 : Math.max(8, box.top - tip.offsetHeight - 6)}px`;
  };
  const hide = (target, force = false) => {
    if (!force && Date.now() < pinnedUntil) return;
    if (target && target !== current) return;
    current = null;
    tip.hidden = true;
  };
  const find = (ev) => (ev.target instanceof Element ? ev.target.closest("[data-card]") : null);
  document.addEventListener("mouseover", (ev) => { const t = find(ev); if (t && t !== current) show(t); });
  document.addEventListener("mouseout", (ev) => {
    const t = find(ev);
    if (t && !(ev.relatedTarget instanceof Node && t.contains(ev.relatedTarget))) hide(t);
  });
  document.addEventListener("focusin", (ev) => { const t = find(ev); if (t) show(t); });
  document.addEventListener("focusout", (ev) => { const t = find(ev); if (t) hide(t); });
  // a tap shows the card for a while (touch screens have no hover)
  document.addEventListener("pointerup", (ev) => {
    if (ev.pointerType !== "touch") return;
    const t = find(ev);
    if (!t) return;
    show(t);
    pinnedUntil = Date.now() + 4000;
    clearTimeout(hideTimer);
    hideTimer = setTimeout(() => hide(null, true), 4000);
  });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") { pinnedUntil = 0; hide(null, true); } });
  return { show, hide };
}

// People's words for an id or key: "combat_move" -> "Combat move".
export function humanize(id) {
  const text = String(id ?? "").replace(/[_\s]+/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Whether the player asked for less motion (animations are skipped then).
export function reducedMotion() {
  return Boolean(window.matchMedia?.("(prefers-reduced-motion: reduce)").matches);
}
