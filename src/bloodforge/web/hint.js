// Hints (issue 21): at a table created with hints on, the action panel of the seat to act gets a
// "Hint" button. It asks the server what the strongest AI would play now for this seat (a search
// from the seat's own view only) and shows "The AI would play: <action> (estimated win chance
// 62%)", and outlines that action's button so it is easy to find. The answer is kept for the
// position it was asked at, so redrawing the panel keeps it; a new position clears it.
import { api, el } from "/static/common.js";

let last = null; // { key, hint } of the last answer

function keyOf(ctx) {
  return `${ctx.tableId}|${ctx.seat}|${ctx.view?.version}`;
}

function sentence(ctx, hint) {
  let label = hint.label;
  try { label = ctx.ui?.label(hint.action) || hint.label; } catch { /* the server's wording */ }
  const what = [label, ...(hint.then || [])].join(", then ");
  return `The AI would play: ${what} (estimated win chance ${Math.round(hint.win_chance * 100)}%)`;
}

// Outline the hinted action's button (and open its group, so the button is seen).
function mark(box, action) {
  for (const b of box.querySelectorAll("button.hinted")) { b.classList.remove("hinted"); b.style.outline = ""; }
  for (const b of box.querySelectorAll("button[data-action]")) {
    if (b.dataset.action !== action) continue;
    b.classList.add("hinted");
    b.style.outline = "3px solid #e0a800";
    b.style.outlineOffset = "2px";
    const group = b.closest("details");
    if (group) group.open = true;
    b.scrollIntoView({ block: "nearest" });
  }
}

/** Append the hint row to the action panel `box` when this table has hints and a seat acts. */
export function hintPanel(ctx, box) {
  if (!ctx.table?.hints || ctx.seat === null || !ctx.token || ctx.replayMode || !ctx.view?.legal?.length) return;
  const out = el("span", { class: "hint-text", role: "status", "aria-live": "polite" });
  const button = el("button", { type: "button", class: "hint-button", title: "What would the strongest AI play now?", text: "Hint" });
  const show = (hint) => { out.textContent = sentence(ctx, hint); mark(box, hint.action); };
  button.addEventListener("click", async () => {
    const key = keyOf(ctx);
    button.disabled = true;
    out.textContent = "The AI is thinking…";
    try {
      const hint = await api("POST", `/api/tables/${encodeURIComponent(ctx.tableId)}/seats/${ctx.seat}/hint`, undefined, ctx.token);
      last = { key, hint };
      if (keyOf(ctx) === key) show(hint);
      else out.textContent = "";
    } catch (err) {
      out.textContent = `No hint: ${err.message}`;
    } finally {
      button.disabled = false;
    }
  });
  box.append(el("div", { class: "hint-row" }, button, " ", out));
  if (last && last.key === keyOf(ctx)) setTimeout(() => show(last.hint), 0);
}
