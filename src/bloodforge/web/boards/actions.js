// Action texts read through the game's grammar: typed arguments, people's labels, and the
// picking of arguments by clicks. Pure functions (no DOM) so that every board shares them.

// Argument types a click can supply: a cell of the board's geometry, a piece (`unit`), a hand
// item (`unit`, `card` or `tile`, as the item's kind says). An argument typed `word` accepts any
// click whose id is that word (an argument that may be a unit or a square, say).
export const CELL_TYPES = { areas: "area", squares: "square", hexes: "hex" };

export function grammarMap(grammar) {
  return new Map((grammar || []).map((g) => [g.kind, g]));
}

export function parse(text, grammar) {
  const [verb, ...args] = text.split(" ");
  const spec = grammar.get(verb);
  const types = args.map((_, i) => spec?.types?.[i] ?? "word");
  const names = args.map((_, i) => spec?.args?.[i] ?? `arg${i}`);
  return { text, verb, args, types, names, spec };
}

export function accepts(type, value, pick) {
  return value === pick.value && (type === pick.type || type === "word");
}

// Argument positions the picks take in `action` (each pick the first free argument it fits), or
// null when the picks do not fit it.
export function assign(action, picks) {
  const used = new Set();
  for (const pick of picks) {
    const i = action.args.findIndex((v, k) => !used.has(k) && accepts(action.types[k], v, pick));
    if (i < 0) return null;
    used.add(i);
  }
  return used;
}

export function candidates(actions, picks) {
  return actions.filter((a) => assign(a, picks) !== null);
}

// The arguments of `action` not taken by `picks` that a click could still supply.
export function openArgs(action, picks, clickable) {
  const used = assign(action, picks) || new Set();
  const out = [];
  action.args.forEach((v, i) => {
    if (used.has(i)) return;
    const hit = clickable.find((c) => accepts(action.types[i], v, c));
    if (hit) out.push({ ...hit, pos: i });
  });
  return out;
}

// Whether the picks say enough to make `action`: no argument a click could still supply comes
// after the last one picked. Texts put the object first and the target last (`step <unit>
// <hex>`, `build <tile> <area>`), so a click on a target completes a choice ("this hex") while
// a click on a piece or a tile only selects it ("this walker ... where to?").
export function ready(action, picks, clickable) {
  const used = assign(action, picks);
  if (used === null) return false;
  const last = Math.max(-1, ...used);
  return openArgs(action, picks, clickable).every((o) => o.pos < last);
}

// "Move {unit} from {from} to {to}" filled with each argument's display name; the action text
// itself when the verb has no label.
export function label(action, nameOf) {
  const template = action.spec?.label;
  if (!template) return action.text;
  return template.replace(/\{(\w+)\}/g, (whole, name) => {
    const i = action.names.indexOf(name);
    if (i < 0) return whole;
    return i < action.args.length ? nameOf(action.args[i], action.types[i]) : "";
  }).replace(/\s+/g, " ").trim();
}
