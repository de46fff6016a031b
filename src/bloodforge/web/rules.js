// A game's rules page (/rules/<game id>): the Markdown its folder ships, drawn as headings,
// paragraphs, lists and tables. Text goes in as text nodes only (never as markup).
import { api, el } from "/static/common.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

// **bold** and `code` inside a line, as nodes.
function inline(text) {
  const out = [];
  const re = /(\*\*[^*]+\*\*|`[^`]+`)/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const t = m[0];
    out.push(t.startsWith("**") ? el("strong", { text: t.slice(2, -2) }) : el("code", { text: t.slice(1, -1) }));
    last = m.index + t.length;
  }
  out.push(text.slice(last));
  return out;
}

export function render(markdown) {
  const nodes = [];
  let list = null, para = [], table = null;
  const flush = () => {
    if (para.length) nodes.push(el("p", {}, ...inline(para.join(" "))));
    para = [];
    list = null;
    table = null;
  };
  for (const raw of markdown.split("\n")) {
    const line = raw.trimEnd();
    const h = /^(#{1,4})\s+(.*)$/.exec(line);
    const item = /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(line);
    if (h) { flush(); nodes.push(el(`h${Math.min(4, h[1].length + 1)}`, {}, ...inline(h[2]))); continue; }
    if (/^\|/.test(line)) {
      if (/^\|[\s|:-]+\|$/.test(line)) continue;
      if (!table) { flush(); table = el("table", { class: "rules-table" }); nodes.push(table); }
      table.append(el("tr", {}, ...line.slice(1, -1).split("|").map((c) => el("td", {}, ...inline(c.trim())))));
      continue;
    }
    if (item) {
      if (para.length) { nodes.push(el("p", {}, ...inline(para.join(" ")))); para = []; }
      if (!list) { list = el("ul"); nodes.push(list); }
      list.append(el("li", {}, ...inline(item[1])));
      continue;
    }
    if (!line.trim()) { flush(); continue; }
    if (list && /^\s+/.test(raw)) { list.lastChild.append(" ", ...inline(line.trim())); continue; }
    list = null;
    para.push(line.trim());
  }
  flush();
  return nodes;
}

async function start() {
  const box = document.getElementById("rules");
  try {
    const r = await api("GET", `/api/games/${encodeURIComponent(gameId)}/rules`);
    document.title = `${r.name} — rules — bloodforge`;
    box.append(...render(r.markdown));
  } catch (err) {
    box.append(el("p", { class: "field-error", text: `No rules page: ${err.message}` }));
  }
}

start();
