// fortress-siege: per-player Fortresses, characters with armor and weapons, attacks.

import { el, section, stat } from "../dom.js";
import { cardBack, cardRow, pile, shortName, standardCard } from "../cards.js";

function character(ch) {
  return el("div", { class: "character", "data-ref": ch.card },
    standardCard(ch.card, { ref: ch.card }),
    el("div", { class: "gear" },
      ch.armor ? el("span", { class: "gear-item" }, "armor ", standardCard(ch.armor, { small: true }), ` ${ch.armor_left} left`) : el("span", { class: "gear-item muted" }, "no armor"),
      ch.weapon ? el("span", { class: "gear-item" }, "weapon ", standardCard(ch.weapon, { small: true })) : null,
      el("span", { class: "power" }, `power ${ch.power}`)));
}

function player(p, view, ctx) {
  const mine = p.seat === view.you;
  const hand = p.hand ? cardRow(p.hand, (id) => standardCard(id), { empty: "empty hand" })
    : el("div", { class: "row cards" }, Array.from({ length: p.hand_size || 0 }, () => cardBack("hidden card", { small: true })));
  return el("div", {
    class: ["seat-zone", mine && "mine", view.active === p.seat && "acting", !p.in_game && "out"],
    "data-ref": `seat:${p.seat}`,
  },
  el("h4", {}, ctx.name(p.seat), mine ? " (you)" : "", p.in_game ? "" : " — defeated"),
  el("div", { class: "row piles" },
    el("div", { class: "fortress-pile", "data-ref": `fortress:${p.seat}` }, pile("Fortress", p.fortress)),
    el("div", { class: "pile" }, p.tombstone ? standardCard(p.tombstone, { small: true, ref: `tomb:${p.tombstone}` }) : cardBack(), el("span", { class: "pile-label" }, "Tombstone")),
    pile("Graveyard", (p.graveyard || []).length, { top: p.graveyard?.length ? standardCard(p.graveyard.at(-1), { small: true }) : null })),
  el("div", { class: "battlefield" }, (p.battlefield || []).length ? p.battlefield.map(character) : el("span", { class: "empty-note" }, "no characters")),
  el("div", { class: "hand" }, el("span", { class: "stat-label" }, mine ? "your hand" : `hand (${p.hand_size})`), hand),
  p.graveyard?.length ? el("details", { class: "graveyard" }, el("summary", {}, `Graveyard (${p.graveyard.length})`), cardRow(p.graveyard, (id) => standardCard(id, { small: true, ref: id }))) : null);
}

export default {
  render(view, ctx) {
    const attack = view.attack;
    return el("div", { class: "board siege" },
      el("div", { class: "info-bar" },
        stat("phase", view.phase), view.active !== null && view.active !== undefined ? stat("turn", ctx.name(view.active)) : null,
        stat("moves left", view.moves_left), view.winds_of_fate ? stat("", "Winds of Fate") : null,
        view.set_aside ? stat("set aside", view.set_aside) : null),
      attack ? el("div", { class: "attack-banner", role: "status" },
        el("b", {}, `${ctx.name(attack.seat)} attacks `),
        attack.target ? `${shortName(attack.target)} of ${ctx.name(attack.target_seat)}` : `${ctx.name(attack.target_seat)}'s Fortress`,
        ` with ${shortName(attack.attacker)} (power ${attack.power})`,
        attack.defenders?.length ? ` · defenders: ${attack.defenders.map(shortName).join(", ")}` : "",
        attack.shields?.length ? ` · shields: ${attack.shields.map((s) => s.map(shortName).join("+")).join(", ")}` : "") : null,
      el("div", { class: "seats" }, (view.players || []).map((p) => player(p, view, ctx))));
  },
  label(a, ctx) {
    const n = (id) => shortName(id);
    switch (a.type) {
      case "draw": return "Draw from your Fortress";
      case "deploy": return `Deploy ${n(a.card)}`;
      case "armor": return `Armor ${n(a.character)} with ${n(a.card)}`;
      case "equip": return `Arm ${n(a.character)} with ${n(a.card)}`;
      case "attack": return a.fortress !== undefined ? `${n(a.attacker)} attacks ${ctx.name(a.fortress)}'s Fortress` : `${n(a.attacker)} attacks ${n(a.character)}`;
      case "barrage": return `Barrage ${ctx.name(a.fortress)}'s Fortress with ${n(a.card)}`;
      case "angel_of_life": return `Angel of Life (${n(a.card)}): raise ${n(a.character)}`;
      case "angel_of_death": return `Angel of Death (${n(a.card)}): slay ${n(a.character)}`;
      case "discard": return `Discard ${n(a.card)}`;
      case "discard_character": return `Dismiss ${n(a.character)}`;
      case "assign_defender": return `Defend with ${n(a.character)}`;
      case "add_shield": return `Raise shield ${a.cards.map(n).join(" + ")}`;
      case "done_defending": return "Done defending";
      default: return null;
    }
  },
  refs(a) {
    const out = [];
    if (a.fortress !== undefined) out.push(`fortress:${a.fortress}`);
    return out;
  },
};
