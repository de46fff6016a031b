// Fallback UI for a game without its own module: the observation as readable JSON. Every legal
// action is still playable from the side panel, so any registered game can be played at once.
import { clear, el } from "/static/common.js";

export function createView(ctx) {
  return {
    render(view) {
      const board = clear(ctx.board);
      board.append(el("pre", { class: "observation", text: JSON.stringify(view.observation, null, 1) }));
      clear(ctx.hand);
      const players = clear(ctx.players);
      for (const s of ctx.table.seats) {
        players.append(el("div", { class: `player ${view.current_player === s.seat ? "to-move" : ""}` },
          el("strong", { text: s.name }), el("span", { class: "muted", text: s.kind === "agent" ? " (AI)" : "" })));
      }
    },
    label: (text) => text,
    prompt: () => "Choose an action on the right.",
  };
}
