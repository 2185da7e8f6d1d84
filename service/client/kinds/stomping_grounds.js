// stomping-grounds: a map of realms laid edge to edge, dragons flying over it.

import { el, section, stat } from "../dom.js";
import { cardBack, cardRow, namedCard, namedTitle } from "../cards.js";

const SEAT_COLOURS = ["#c0392b", "#2e6fb7", "#2f8f46", "#8e44ad"];

function realmMap(view, ctx) {
  const realms = view.realms || [];
  const flights = new Set();
  for (const a of ctx.actions) for (const key of ["to", "at"]) if (Array.isArray(a[key])) flights.add(a[key].join(","));
  const cells = realms.map((r) => [r.at[0], r.at[1]]).concat([...flights].map((k) => k.split(",").map(Number)));
  if (!cells.length) return el("p", { class: "empty-note" }, "No realms yet.");
  const xs = cells.map((c) => c[0]); const ys = cells.map((c) => c[1]);
  const minX = Math.min(...xs); const maxX = Math.max(...xs); const minY = Math.min(...ys); const maxY = Math.max(...ys);
  const byAt = new Map(realms.map((r) => [r.at.join(","), r]));
  const path = new Set((view.flight_path || []).map((p) => p.join(",")));
  const grid = el("div", { class: "realm-map", role: "grid", "aria-label": "the realm map", style: { "grid-template-columns": `repeat(${maxX - minX + 1}, minmax(4.5rem, 1fr))` } });
  for (let y = maxY; y >= minY; y -= 1) {
    for (let x = minX; x <= maxX; x += 1) {
      const key = `${x},${y}`;
      const r = byAt.get(key);
      if (!r) {
        grid.appendChild(el("div", { class: ["realm", "void", flights.has(key) && "spot"], "data-ref": flights.has(key) ? key : null, title: `(${x}, ${y})` }, flights.has(key) ? "+" : ""));
        continue;
      }
      grid.appendChild(el("div", {
        class: ["realm", r.razed && "razed", path.has(key) && "path", `border-${r.border}`], "data-ref": key,
        style: { "--owner": SEAT_COLOURS[r.owner] || "#777" }, title: `${r.name} (${r.kind}) at (${x}, ${y})`,
      },
      el("span", { class: "realm-name" }, r.name),
      el("span", { class: "realm-kind" }, r.kind, r.razed ? " · razed" : ""),
      r.challenge ? el("span", { class: ["challenge", `c-${r.challenge.colour}`], title: r.challenge.text }, `${r.challenge.name} ${r.challenge.number}`) : null,
      el("span", { class: "dragons" }, (r.dragons || []).map((s) => el("span", { class: "dragon-token", style: { background: SEAT_COLOURS[s] }, title: `${ctx.name(s)}'s dragon` }, String(s + 1))))));
    }
  }
  return grid;
}

function player(p, view, ctx) {
  const mine = Array.isArray(p.hand);
  return el("div", { class: ["seat-zone", mine && "mine", view.active === p.seat && "acting"], style: { "--owner": SEAT_COLOURS[p.seat] } },
    el("h4", {}, el("span", { class: "dragon-token", style: { background: SEAT_COLOURS[p.seat] } }, String(p.seat + 1)), ` ${p.dragon_name} — ${ctx.name(p.seat)}`, mine ? " (you)" : "",
      " ", stat("cards left", p.remaining)),
    el("div", { class: "row" }, stat("deck", p.deck), stat("stash", (p.stash || []).length), stat("junk", (p.junk || []).length),
      stat("burned", (p.burned || []).length), stat("hoard", (p.hoard || []).length), p.luck_bonus ? stat("luck", p.luck_bonus) : null),
    el("div", { class: "hand" }, el("span", { class: "stat-label" }, mine ? "your hand" : `hand (${p.hand})`),
      mine ? cardRow(p.hand, (id) => namedCard(id), { empty: "empty hand" })
        : el("div", { class: "row cards" }, Array.from({ length: p.hand || 0 }, () => cardBack("hidden card", { small: true })))),
    p.hoard?.length ? el("div", {}, el("span", { class: "stat-label" }, "hoard"), cardRow(p.hoard, (id) => namedCard(id, { small: true }))) : null,
    p.stash?.length ? el("details", {}, el("summary", {}, `Stash (${p.stash.length})`), cardRow(p.stash, (id) => namedCard(id, { small: true }))) : null);
}

export default {
  render(view, ctx) {
    return el("div", { class: "board stomping" },
      el("div", { class: "info-bar" }, stat("round", `${view.round}/${view.turn_limit}`), stat("phase", view.phase),
        view.active !== null && view.active !== undefined ? stat("active", ctx.name(view.active)) : null,
        view.priority !== null && view.priority !== undefined ? stat("priority", ctx.name(view.priority)) : null,
        stat("realms", `${(view.realms || []).length}/${view.realm_limit}`)),
      view.stack?.length ? el("div", { class: "attack-banner" }, "On the stack: ", view.stack.map((s) => `${s.kind}${s.card ? ` ${namedTitle(s.card)}` : ""}${s.opponent !== undefined && s.opponent !== null ? ` vs ${ctx.name(s.opponent)}` : ""}${s.colour ? ` (${s.colour})` : ""}${s.cancelled ? " — cancelled" : ""}`).join("; ")) : null,
      section("The realms", realmMap(view, ctx)),
      el("div", { class: "seats" }, (view.players || []).map((p) => player(p, view, ctx))));
  },
  label(a, ctx) {
    const n = (id) => namedTitle(id);
    const at = (c) => `(${c[0]}, ${c[1]})`;
    switch (a.type) {
      case "place_realm": return `Place ${n(a.card)} at ${at(a.at)}`;
      case "place_dragon": return `Place your dragon at ${at(a.at)}`;
      case "end_phase": return "End this phase";
      case "fly": return `Fly to ${at(a.to)}`;
      case "land": return "Land";
      case "draw": return "Draw";
      case "junk": return `Junk ${n(a.card)}`;
      case "play": return a.at ? `Play ${n(a.card)} at ${at(a.at)}` : `Play ${n(a.card)}`;
      case "attempt": return "Attempt the challenge";
      case "pass": return "Pass";
      case "burn": return `Burn ${a.count} from your ${a.pile}`;
      case "duel": return `Duel ${ctx.name(a.opponent)} (${a.colour})`;
      case "push": return `Push to ${at(a.to)}`;
      case "junk_burned": return "Junk the burned cards";
      case "roam": return `Roam ${n(a.card)} to ${at(a.to)}`;
      case "skip": return "Skip";
      case "search": return `Search for ${n(a.card)}`;
      case "move_dragon": return `Move ${ctx.name(a.seat)}'s dragon to ${at(a.to)}`;
      case "raze": return `Raze the realm at ${at(a.at)}`;
      default: return null;
    }
  },
};
