// fortress-royals: secret ten-card hands built at either end, attacks on a neighbour.

import { el, section, stat } from "../dom.js";
import { cardBack, cardRow, pile, shortName, standardCard } from "../cards.js";

function hand(h, view, ctx) {
  const revealed = new Set(h.revealed || []);
  const mine = h.seat === view.seat;
  const cards = (h.cards || []).map((id, i) => {
    const node = id === null ? cardBack(`card ${i + 1}`) : standardCard(id);
    if (revealed.has(i)) node.classList.add("revealed");
    node.dataset.pos = i;
    return node;
  });
  return el("div", { class: ["seat-zone", mine && "mine", (view.to_act || []).includes(h.seat) && "acting"] },
    el("h4", {}, ctx.name(h.seat), mine ? " (you)" : "", " ", stat("score", view.scores?.[h.seat] ?? 0)),
    el("div", { class: "row hand-ends" },
      el("span", { class: "end-mark", "data-ref": mine ? "left" : null }, "◀ left"),
      el("div", { class: "row cards" }, cards.length ? cards : el("span", { class: "empty-note" }, "empty hand")),
      el("span", { class: "end-mark", "data-ref": mine ? "right" : null }, "right ▶")),
    (view.captured?.[h.seat] || []).length
      ? el("div", { class: "captured" }, el("span", { class: "stat-label" }, "captured royals"), cardRow(view.captured[h.seat], (id) => standardCard(id, { small: true })))
      : null);
}

export default {
  render(view, ctx) {
    const drawn = view.drawn;
    return el("div", { class: "board royals" },
      el("div", { class: "info-bar" },
        stat("round", view.round), stat("phase", view.phase), stat("direction", view.direction),
        view.even_round ? stat("", "Even Round") : null,
        view.rounds ? stat("rounds", view.rounds) : stat("target", view.target_score),
        view.attack_target !== null && view.attack_target !== undefined ? stat("attacking", ctx.name(view.attack_target)) : null),
      el("div", { class: "row piles" },
        pile("deck", view.deck),
        pile("discard", (view.discard || []).length, { top: view.discard?.length ? standardCard(view.discard.at(-1), { small: true }) : null }),
        pile("set aside", (view.set_aside || []).length),
        drawn ? el("div", { class: "drawn" }, el("span", { class: "stat-label" }, `${ctx.name(drawn.seat)} places`),
          drawn.card ? standardCard(drawn.card) : cardBack("the drawn card")) : null),
      view.first_draws?.length ? section("Draws for first player", view.first_draws.map((d) => cardRow(d, (id) => standardCard(id, { small: true })))) : null,
      el("div", { class: "seats" }, (view.hands || []).map((h) => hand(h, view, ctx))),
      view.round_end ? el("p", { class: "note" }, `Round over: ${view.round_end}`) : null,
      view.round_points?.length ? section("Points by round", el("table", { class: "scores" },
        el("tr", {}, el("th", {}, "round"), (view.hands || []).map((h) => el("th", {}, ctx.name(h.seat)))),
        view.round_points.map((r, i) => el("tr", {}, el("td", {}, i + 1), r.map((p) => el("td", {}, p)))))) : null);
  },
  label(a, ctx) {
    const v = ctx.view;
    switch (a.type) {
      case "place": return `Place ${v.drawn?.card ? shortName(v.drawn.card) : "the card"} at the ${a.end} end`;
      case "keep_dealt": return "Keep the dealt card";
      case "swap_dealt": return "Swap the dealt card";
      case "keep": return "Keep this arrangement";
      case "move": {
        const cards = (v.hands || []).find((h) => h.seat === v.seat)?.cards || [];
        return `Move ${cards[a.from] ? shortName(cards[a.from]) : `card ${a.from + 1}`} to position ${a.to + 1}`;
      }
      case "pass": return "Pass";
      case "done": return "Done";
      case "discard_ace": return `Discard ${shortName(a.card)}`;
      case "attack": return `Attack the ${a.side} end with ${a.cards.map(shortName).join(" + ")}`;
      case "choose_first": return `${ctx.name(a.seat)} goes first`;
      default: return null;
    }
  },
};
