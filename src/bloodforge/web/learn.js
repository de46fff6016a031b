// The lobby's "Learn to play" card (issue 18): one button per game that ships a tutorial. A
// click creates the tutorial's table (POST /api/tutorials/{game}: you in seat 0, the AI in the
// others) and opens it with your seat's link; the table page's coach (tutorial.js) guides you.
import { api, el, rememberSeat, seatLink, toast } from "/static/common.js";

async function start() {
  let list = [];
  try { list = await api("GET", "/api/tutorials"); } catch { return; }
  if (!list.length) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/tutorial.css" }));
  const host = document.querySelector(".lobby-main");
  if (!host) return;
  const buttons = el("div", { class: "learn-list" });
  for (const t of list) {
    buttons.append(el("button", {
      type: "button", class: "learn-button", dataset: { learn: t.game },
      "aria-label": `Learn to play ${t.game_name}`, onclick: (ev) => open(t, ev.currentTarget),
    }, el("span", { class: "learn-game", text: t.game_name }), el("span", { class: "learn-note", text: `${t.steps} guided steps, then play the AI` })));
  }
  const card = el("section", { class: "card learn-card", id: "learn" },
    el("h2", { text: "Learn to play" }),
    el("p", { class: "muted", text: "New to a game? Play a guided first turn: the table shows what to click and explains the rule, then the game goes on against the AI." }),
    buttons);
  host.prepend(card);
}

async function open(t, button) {
  button.disabled = true;
  try {
    const name = localStorage.getItem("bloodforge.name") || "";
    const created = await api("POST", `/api/tutorials/${encodeURIComponent(t.game)}`, { name });
    const link = created.links[0];
    rememberSeat(created.table.id, link.seat, link.token, `${created.table.name} — ${link.name} (seat ${link.seat + 1})`);
    location.href = seatLink(created.table.id, link.seat, link.token);
  } catch (err) {
    toast(`Could not start the tutorial: ${err.message}`);
    button.disabled = false;
  }
}

start();
