// dragoborne: two players, three forts each, creatures, dice as shields or crosses.

import { el, section, stat } from "../dom.js";
import { cardBack, cardRow, die, namedCard, namedTitle } from "../cards.js";

function creature(c, side) {
  const node = namedCard(c.id, {
    kind: "creature", colour: null,
    lines: [`ATK ${c.atk} · EDR ${c.edr}`, c.damage ? `damage ${c.damage}` : null, c.cross !== null && c.cross !== undefined ? `cross die ${c.cross + 1}` : null].filter(Boolean),
    cls: c.rested ? "rested" : null,
  });
  node.dataset.owner = side.seat;
  return node;
}

function fort(f, i, side, view, ctx) {
  const guards = (side.creatures || []).filter((c) => c.fort === i);
  const shieldDie = f.shield !== null && f.shield !== undefined ? side.dice?.[f.shield] : null;
  const attacked = view.attack && view.attack.fort === i && side.seat !== view.active;
  return el("div", { class: ["fort", f.destroyed && view.phase !== "mulligan" && "destroyed", attacked && "attacked"], "data-ref": `fort:${side.seat}:${i}`, style: { "--tint": `var(--c-${f.colour})` } },
    el("div", { class: "fort-head" },
      el("span", { class: "fort-name" }, `Fort ${i + 1}`),
      el("span", { class: "barriers", title: `${f.barriers} barriers` }, f.destroyed ? (view.phase === "mulligan" ? "no barriers yet" : "destroyed") : `${"▮".repeat(f.barriers)} ${f.barriers}`),
      shieldDie ? die(shieldDie.value, { colour: shieldDie.colour, label: "Dragoshield" }) : null),
    el("div", { class: "fort-banner" }, namedTitle(f.banner), ` (${f.colour})`),
    el("div", { class: "row cards" }, guards.length ? guards.map((c) => creature(c, side)) : el("span", { class: "empty-note" }, "unguarded")));
}

function side(p, view, ctx) {
  const mine = p.seat === view.you;
  const hand = Array.isArray(p.hand) ? cardRow(p.hand, (id) => namedCard(id), { empty: "empty hand" })
    : el("div", { class: "row cards" }, Array.from({ length: p.hand || 0 }, (_, i) => (p.known?.[i] ? namedCard(p.known[i], { small: true }) : cardBack("hidden card", { small: true }))));
  return el("div", { class: ["seat-zone", mine && "mine", (view.to_act || []).includes(p.seat) && "acting"] },
    el("h4", {}, ctx.name(p.seat), mine ? " (you)" : "", ` · ${view.decks?.[p.seat] || ""}`),
    el("div", { class: "row forts" }, (p.forts || []).map((f, i) => fort(f, i, p, view, ctx))),
    el("div", { class: "row dice-row" }, el("span", { class: "stat-label" }, "dice"),
      (p.dice || []).map((d, i) => el("span", { class: ["die-slot", d.use !== "free" && "used"], "data-ref": `die:${p.seat}:${i}` },
        die(d.value, { colour: d.colour, label: `${d.colour} die ${d.value}: ${d.use}` }), el("small", {}, d.use)))),
    el("div", { class: "row" }, stat("deck", p.deck), stat("discard", (p.discard || []).length),
      stat("resources", `${(p.resources || []).filter((r) => !r.rested).length}/${(p.resources || []).length} ready`)),
    el("div", { class: "hand" }, el("span", { class: "stat-label" }, mine ? "your hand" : "hand"), hand));
}

export default {
  render(view, ctx) {
    const attacker = view.attack ? view.players.flatMap((p) => p.creatures).find((c) => c.id === view.attack.creature) : null;
    return el("div", { class: "board dragoborne" },
      el("div", { class: "info-bar" }, stat("turn", view.turn), stat("phase", view.phase),
        view.active !== null && view.active !== undefined ? stat("active", ctx.name(view.active)) : null),
      view.attack ? el("div", { class: "attack-banner", role: "status" }, `${attacker ? namedTitle(attacker.id) : "A creature"} attacks fort ${view.attack.fort + 1}`) : null,
      view.pending?.length ? el("div", { class: "note" }, `Waiting to resolve: ${view.pending.map((p) => (p && (p.card || p.kind || p.type)) ? namedTitle(p.card || p.kind || p.type) : "effect").join(", ")}`) : null,
      el("div", { class: "seats" }, (view.players || []).map((p) => side(p, view, ctx))));
  },
  label(a, ctx) {
    const n = (id) => namedTitle(id);
    const you = ctx.view.you;
    const dieOf = (i) => { const d = ctx.view.players?.[you]?.dice?.[i]; return d ? `${d.colour} ${d.value}` : `die ${i + 1}`; };
    // Rules revision 2: the player chooses what pays (a.pay: the colours rested; a.die: a die spent).
    const paid = (a.pay ? ` — pay ${a.pay.length ? a.pay.join(" + ") : "nothing"}` : "") + (a.die != null && a.type === "activate" ? `, spend ${dieOf(a.die)}` : "");
    switch (a.type) {
      case "mulligan": return a.cards.length ? `Mulligan ${a.cards.map(n).join(", ")}` : "Keep your hand";
      case "summon": return `Summon ${n(a.card)} to fort ${a.fort + 1}${paid}`;
      case "shield": return `Dragoshield: ${dieOf(a.die)} on fort ${a.fort + 1}`;
      case "cross": return `Dragocross: ${dieOf(a.die)} on ${n(a.creature)}`;
      case "move": return `Move ${n(a.creature)} to fort ${a.fort + 1}`;
      case "resource": return "Take a resource";
      case "skip_resource": return "Skip the resource";
      case "cast": return `Cast ${n(a.card)}${paid}`;
      case "combat": return "Go to combat";
      case "activate": return `Activate ${n(a.creature)} (ability ${a.ability + 1})${paid}`;
      case "switch": return `Switch ${a.creatures.map(n).join(" ⇄ ")}`;
      case "attack": return `${n(a.creature)} attacks fort ${a.fort + 1}`;
      case "burst": return "Burst";
      case "take": return "Take it";
      case "target": return `Target ${n(a.target)}`;
      case "block": return `Block with ${n(a.creature)}`;
      case "no_block": return "Do not block";
      case "discard": return `Discard ${n(a.card)}`;
      case "end_turn": return "End turn";
      default: return null;
    }
  },
  refs(a, ctx) {
    const you = ctx.view.you;
    const out = [];
    if (a.die !== undefined) out.push(`die:${you}:${a.die}`);
    if (a.fort !== undefined) out.push(`fort:${a.type === "attack" ? 1 - you : you}:${a.fort}`);
    return out;
  },
};
