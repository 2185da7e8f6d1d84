// dragon-fortress: Estate Lines of estate, gold and tower cards; dragons march through them.

import { el, section, stat, titleCase } from "../dom.js";
import { cardBack, cardRow, namedCard, namedTitle } from "../cards.js";

const GROUPS = [
  [/^(crop-field|farmstead)/, "estate", "green"],
  [/^gold/, "gold", "gold"],
  [/^(watch-tower|guard-tower|gate-tower|war-tower|dragon-tower)/, "tower", "black"],
  [/^(fallow|meadow|pasture)/, "phase", "yellow"],
  [/^(barn|mill|granary)/, "upgrade", "blue"],
  [/^estate-flag/, "flag", "white"],
];

function kindOf(id) {
  for (const [re, kind, colour] of GROUPS) if (re.test(id)) return { kind, colour };
  return { kind: "dragon", colour: "red" };
}

export function dfCard(id, opts = {}) {
  const { kind, colour } = kindOf(id);
  return namedCard(id, { kind, colour, ...opts });
}

function estate(p, view, ctx) {
  const mine = p.seat === view.you;
  const line = (p.line || []).map((id, i) => {
    const node = dfCard(id, { small: true });
    if (p.dragon && p.dragon.position === i) node.classList.add("dragon-here");
    return node;
  });
  return el("div", { class: ["seat-zone", mine && "mine", view.turn === p.seat && "acting"] },
    el("h4", {}, ctx.name(p.seat), mine ? " (you)" : "", " ", stat("VP", p.victory_points)),
    el("div", { class: "row" }, stat("estate", p.estate_power), stat("fortress", p.fortress_power), stat("gold", p.gold_power),
      p.phase ? stat("phase", titleCase(p.phase)) : null),
    p.dragon ? el("div", { class: "attack-banner" }, `${namedTitle(p.dragon.card)} (strength ${p.dragon.strength}) at card ${p.dragon.position + 1}, damage ${p.dragon.damage}`) : null,
    el("div", { class: "estate-line" }, el("div", { class: "stat-label" }, "Estate Line"), line.length ? el("div", { class: "row cards line" }, line) : el("span", { class: "empty-note" }, "empty")),
    el("div", { class: "hand" }, el("span", { class: "stat-label" }, mine ? "your hand" : `hand (${p.hand_count})`),
      p.hand ? cardRow(p.hand, (id) => dfCard(id), { empty: "empty hand" })
        : el("div", { class: "row cards" }, Array.from({ length: p.hand_count || 0 }, (_, i) => (p.hand_gold?.[i] ? dfCard(p.hand_gold[i], { small: true }) : cardBack("hidden card", { small: true }))))),
    p.trophies?.length ? el("div", {}, el("span", { class: "stat-label" }, "trophies"), cardRow(p.trophies, (id) => dfCard(id, { small: true }))) : null,
    Object.values(p.purchases || {}).some(Boolean) ? el("div", { class: "row" }, Object.entries(p.purchases).filter(([, n]) => n).map(([k, n]) => stat(titleCase(k), n))) : null);
}

export default {
  render(view, ctx) {
    return el("div", { class: "board dragon-fortress" },
      el("div", { class: "info-bar" }, stat("step", view.step), view.turn !== null && view.turn !== undefined ? stat("turn", ctx.name(view.turn)) : null,
        stat("turns played", view.turns_played), stat("supply", view.supply?.count),
        view.supply?.call_depth !== null && view.supply?.call_depth !== undefined ? stat("dragon call in", view.supply.call_depth) : null,
        stat("gold supply", view.gold_supply)),
      section("Dragons to come", el("div", { class: "row cards" }, (view.dragons || []).map((id) => dfCard(id, { small: true })))),
      view.pending ? el("div", { class: "note" }, `Dragon ${namedTitle(view.pending.dragon)} marching, ${view.pending.steps_left} steps left`) : null,
      section("Piles", el("div", { class: "row" }, Object.entries(view.piles || {}).map(([k, n]) => el("span", { class: "pile-chip", "data-ref": k }, `${titleCase(k)} ${n}`)))),
      el("div", { class: "seats" }, (view.players || []).map((p) => estate(p, view, ctx))),
      view.scores ? section("Final scores", el("table", { class: "scores" },
        el("tr", {}, el("th", {}, "seat"), el("th", {}, "VP"), el("th", {}, "estate bonus"), el("th", {}, "fortress bonus"), el("th", {}, "total")),
        view.scores.map((s, i) => el("tr", {}, el("td", {}, ctx.name(i)), el("td", {}, s.victory_points), el("td", {}, s.estate_bonus), el("td", {}, s.fortress_bonus), el("td", {}, el("b", {}, s.total)))))) : null);
  },
  label(a) {
    const n = (id) => namedTitle(id);
    switch (a.type) {
      case "stay": return "Stay";
      case "draw": return `Draw from the ${a.pile} pile`;
      case "place": return `Place ${n(a.card)} in your Estate Line`;
      case "move": return `Move ${n(a.card)}`;
      case "advance": return `Advance to ${titleCase(a.phase)}`;
      case "purchase": return `Buy ${titleCase(a.card)}`;
      default: return null;
    }
  },
};
