// dragoborne: two players, three forts each with face-down barriers, creatures on the
// forts, dice rolled each turn as Dragoshields or Dragocrosses (kinds/README.md).
//
// Places on the board (data-ref): a card in hand or a creature by its id
// ("0-emberhound-2"), a fort "fort:<seat>:<i>", a die "die:<seat>:<i>". Card faces come
// from GET /v1/kinds/dragoborne/cards, keyed by the card's key ("emberhound"); a face
// also carries its effects as data (op, amount, max_edr), so a pending effect is named.

import { el, stat } from "../dom.js";
import { cardBack, die, faceCard, namedTitle } from "../cards.js";
import { handDock } from "./common.js";

// The words of the table a newcomer meets, in our own words, as the kind's How to play
// and RULINGS.md have them; terms.js marks them wherever they are read.
const TERMS = [
  { term: "Fort", forms: ["forts?"], text: "Each player holds three, each with face-down barriers. An attack nobody meets breaks one; a fort with none left falls, and a player with no fort standing at the end of a turn loses." },
  { term: "Barrier", forms: ["barriers?"], text: "A face-down card on a fort that not even its owner has seen. When an attack breaks it, its owner looks at it and either fires its Fort Burst or takes it into hand." },
  { term: "Fort Burst", forms: ["fort bursts?"], text: "What a barrier card does when it is broken, if its owner fires it instead of taking the card into hand." },
  { term: "Banner", forms: ["banners?"], text: "One stands behind each fort and gives it its colour. Banners also lie among your resources and pay costs." },
  { term: "Resource", forms: ["resources?"], text: "Cards in your resource area pay costs by resting: a cost of 3 rests three of them, at least one of the card's colour. They stand again at the start of your turn." },
  { term: "Dragoshield", forms: ["dragoshields?", "shield"], text: "A die set before one of your standing forts, one a fort. Until your next roll it meets every attack on that fort, with ATK 0 and EDR equal to the die's value." },
  { term: "Dragocross", forms: ["dragocross(?:es|ed)?", "cross"], text: "A die put on one of your creatures until your next roll: +1 ATK and +1 EDR, and more when the card lists a bonus for that colour and value." },
  { term: "Dice", forms: ["dice", "die"], text: "You roll your three dice at the start of each turn. Each may do one job until the next roll: a Dragoshield, a Dragocross, or paying a cost (a white die cost takes any colour)." },
  { term: "ATK", text: "The damage a creature deals in a fight: it comes off the other side's EDR until the end of the turn." },
  { term: "EDR", text: "The damage a creature can take: it is destroyed only when its EDR drops below zero. Damage wears off at the end of the turn." },
  { term: "Cost", forms: ["cost"], text: "How many resources you rest to play the card; at least one of them must be of the card's colour." },
  { term: "[AUTO]", text: "An ability that works by itself when its moment comes: when the creature is summoned, attacks, is destroyed, or breaks a barrier." },
  { term: "[ACT]", text: "An ability you use in your main phase by paying the cost it names: resting resources, the creature itself or a die." },
  { term: "[CONT]", text: "An ability that holds for as long as the creature is on the field, such as a boost for the other creatures on its fort." },
  { term: "Creature", forms: ["creatures?"], text: "A card summoned onto one of your forts, two at most on each. It attacks enemy forts and blocks attacks on the fort it stands on." },
  { term: "Summon", forms: ["summon(?:s|ed)?"], text: "Playing a creature from your hand onto one of your standing forts, by paying its cost." },
  { term: "Spell", forms: ["spells?", "cast(?:s)?"], text: "A card that works once when you cast it (paying its cost), then goes to your discard pile." },
  { term: "Rest", forms: ["rest(?:s|ed)?", "stand(?:s|ing)?", "stood"], text: "A rested card has been used this turn: to attack, to block, or to pay. Everything of yours stands up again at the start of your turn." },
  { term: "Block", forms: ["block(?:s|ed)?", "no block"], text: "A standing creature on the attacked fort meets the attack and rests; each side's ATK comes off the other's EDR. An attack nobody meets breaks a barrier." },
  { term: "Mulligan", forms: ["mulligan(?:ed)?", "send back"], text: "Before the first turn, each player may send any of their five opening cards back, once, and draw as many new ones." },
  { term: "Main phase", text: "The middle of your turn: summon creatures, cast spells, give dice a job, use [ACT] abilities and move or switch creatures, in any order." },
  { term: "Combat", text: "The end of your turn's play: rest a standing creature of yours to attack an enemy fort, as often as you have standing creatures, then end the turn." },
  { term: "Resource step", text: "At the start of your turn, after the draw: you may put the top card of your deck among your resources. The first player skips it on the first turn." },
  { term: "Switch", forms: ["switch(?:es)?"], text: "Two of your creatures on different standing forts trade places. You may move and switch as often as you like in your main phase." },
];

const keyOf = (id) => String(id).replace(/^\d+-/, "").replace(/-\d+$/, "");
const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);
const PHASES = { mulligan: "Setup (mulligan)", resource: "Start: resource step", main: "Main phase", combat: "Combat", discard: "End: discarding", over: "Game over" };

function list(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

function cards(n) {
  return `${n} ${n === 1 ? "card" : "cards"}`;
}

// "You draw" / "Greedy bot 2 draws"
function does(ctx, seat, you, other) {
  return `${ctx.who(seat)} ${ctx.isYou(seat) ? you : other}`;
}

// "your" / "Greedy bot 2's"
function whose(ctx, seat) {
  return ctx.isYou(seat) ? "your" : `${ctx.name(seat)}'s`;
}

function nameOf(ctx, id) {
  return ctx.cardName ? ctx.cardName(id) : namedTitle(id);
}

function viewer(ctx) {
  const v = ctx.view || {};
  return ctx.seat ?? v.you ?? null;
}

// The creature with this id on either side, with its owner.
function findCreature(view, id) {
  for (const p of view?.players || []) {
    const c = (p.creatures || []).find((x) => x.id === id);
    if (c) return { c, seat: p.seat };
  }
  return null;
}

function creatureWords(ctx, id) {
  const found = findCreature(ctx.view, id);
  const name = nameOf(ctx, id);
  if (!found) return name;
  return `${name} (${whose(ctx, found.seat)} Fort ${found.c.fort + 1})`;
}

function dieWords(ctx, seat, i) {
  const d = ctx.view?.players?.[seat]?.dice?.[i];
  return d ? `the ${d.colour} ${d.value}` : `die ${i + 1}`;
}

// What one effect primitive does, with its target named when known.
function effectWords(e, ctx = null, target = null) {
  if (!e) return "an effect";
  const edr = e.max_edr ? ` with EDR ${e.max_edr} or less` : "";
  const enemy = target ?? `an enemy creature${edr}`;
  switch (e.op) {
    case "damage": return `deal ${e.amount} damage to ${target ?? "an enemy creature"}`;
    case "destroy": return `destroy ${enemy}`;
    case "rest": return `rest ${target ?? "a standing enemy creature"}`;
    case "stand": return `stand ${target ?? "a resting creature of yours"}`;
    case "bounce": return `return ${target ?? "an enemy creature"} to its owner's hand`;
    case "barrier": return `put the top card of the deck on ${target ?? "a fort"} as a barrier`;
    case "reroll": return `reroll ${target ?? "an unassigned die"}`;
    case "draw": return `draw ${e.amount === 1 ? "a card" : cards(e.amount)}`;
    case "search": return `find a ${e.colour ? cap(e.colour) + " " : ""}${e.card_type || "card"} in the deck`;
    default: return e.op;
  }
}

function pendingEffect(item, ctx) {
  const face = ctx.face(item.source);
  return face?.effects?.[item.where]?.[item.index] || (item.op ? { op: item.op } : null);
}

// The name of a target value of the pending effect (a creature id, a fort or a die).
function targetWords(target, item, ctx) {
  if (typeof target === "string") return creatureWords(ctx, target);
  if (item?.op === "barrier") return `${whose(ctx, item.seat)} Fort ${target + 1}`;
  if (item?.op === "reroll") return dieWords(ctx, item.seat, target);
  return String(target + 1);
}

function targetRef(target, item) {
  if (typeof target === "string") return target;
  if (item?.op === "barrier") return `fort:${item.seat}:${target}`;
  if (item?.op === "reroll") return `die:${item.seat}:${target}`;
  return null;
}

// "rest 2 resources to draw a card", "spend a red die to deal 1 damage to an enemy creature"
function abilityWords(face, n) {
  const a = face?.abilities?.[n];
  const effects = face?.effects?.[`a${n}`] || [];
  if (!a) return `use ability ${n + 1}`;
  const costs = [];
  if (a.rest_cost) costs.push("rest it");
  if (a.resource_cost) costs.push(`rest ${a.resource_cost} resources`);
  if (a.die_cost) costs.push(a.die_cost === "white" ? "spend a die of any colour" : `spend a ${a.die_cost} die`);
  const does_ = effects.map((e) => effectWords(e)).join(", then ");
  return costs.length ? `${list(costs)} to ${does_}` : does_;
}

function pays(a, ctx) {
  const bits = [];
  if (a.pay) bits.push(a.pay.length ? `pay ${a.pay.join(" + ")}` : "free");
  if (a.die !== undefined && a.die !== null && a.type === "activate") bits.push(`spend ${dieWords(ctx, viewer(ctx), a.die)}`);
  return bits.length ? ` (${bits.join(", ")})` : "";
}

// ---------------------------------------------------------------- drawing

function faceOf(id, ctx) {
  return ctx.face ? ctx.face(id) : null;
}

function handCard(id, ctx, { small = false } = {}) {
  return faceCard(id, faceOf(id, ctx), { ref: id, small });
}

function creatureCard(c, side, view, ctx) {
  const printed = faceOf(c.id, ctx);
  const left = c.edr - (c.damage || 0);
  const shown = printed ? {
    ...printed,
    type: null,
    stats: [{ label: "ATK", value: c.atk }, { label: "EDR", value: c.damage ? `${left}/${c.edr}` : c.edr }],
  } : null;
  const crossDie = c.cross !== null && c.cross !== undefined ? side.dice?.[c.cross] : null;
  const marks = el("span", { class: "db-marks" },
    crossDie ? el("span", { class: "db-mark db-cross", title: `Dragocrossed with the ${crossDie.colour} ${crossDie.value}` }, `✚ ${crossDie.colour} ${crossDie.value}`) : null,
    c.damage ? el("span", { class: "db-mark db-damage", title: `${c.damage} damage this turn` }, `−${c.damage}`) : null,
    c.rested ? el("span", { class: "db-mark db-rested" }, "rested") : null);
  const node = faceCard(c.id, shown, { ref: c.id, small: true, cls: ["db-creature", c.rested && "rested"].filter(Boolean).join(" "), extra: marks });
  node.dataset.owner = side.seat;
  if (view.attack && view.attack.creature === c.id) node.classList.add("db-attacking");
  return node;
}

function fortBox(f, i, side, view, ctx) {
  const guards = (side.creatures || []).filter((c) => c.fort === i);
  const shieldDie = f.shield !== null && f.shield !== undefined ? side.dice?.[f.shield] : null;
  const attacked = view.attack && view.attack.fort === i && side.seat !== view.active;
  const setup = view.phase === "mulligan";
  const barrierText = setup ? "barriers after the mulligan" : f.destroyed ? "destroyed" : `${f.barriers} ${f.barriers === 1 ? "barrier" : "barriers"}`;
  const label = `${whose(ctx, side.seat)} Fort ${i + 1}, ${f.colour}: ${barrierText}${shieldDie ? `, Dragoshield ${shieldDie.value}${shieldDie.damage ? ` (${shieldDie.damage} damage)` : ""}` : ""}`;
  // The place an action names (data-ref) is the fort's head: its name, barriers, banner and
  // Dragoshield; the creatures on it are places of their own beside it, never inside it.
  return el("div", {
    class: ["fort", "db-fort", f.destroyed && !setup && "destroyed", attacked && "attacked"],
    style: { "--tint": `var(--c-${f.colour})` },
  },
  el("div", { class: "db-fort-place", "data-ref": `fort:${side.seat}:${i}`, "aria-label": cap(label), title: cap(label) },
    el("div", { class: "fort-head" },
      el("span", { class: "fort-name" }, `Fort ${i + 1}`),
      el("span", { class: "db-barriers" }, setup ? "—" : f.destroyed ? "fallen" : [el("span", { class: "db-pips", "aria-hidden": "true" }, "▮".repeat(f.barriers)), ` ${f.barriers}`])),
    el("div", { class: "fort-banner" }, `${cap(f.colour)} · ${nameOf(ctx, f.banner)}`),
    shieldDie ? el("div", { class: "db-shield", title: `Dragoshield: EDR ${shieldDie.value - (shieldDie.damage || 0)}` },
      die(shieldDie.value, { colour: shieldDie.colour, label: `Dragoshield ${shieldDie.colour} ${shieldDie.value}` }),
      el("span", {}, `Shield ${shieldDie.value - (shieldDie.damage || 0)}`)) : null),
  el("div", { class: "db-guards" }, guards.length ? guards.map((c) => creatureCard(c, side, view, ctx)) : el("span", { class: "empty-note" }, "no creature")));
}

const USE = { free: "free", shield: "shield", cross: "cross", spent: "spent" };

function diceRow(side, ctx) {
  if (!(side.dice || []).length) return null;
  return el("div", { class: "row db-dice" }, el("span", { class: "stat-label" }, "dice"),
    side.dice.map((d, i) => {
      const where = d.use === "shield" ? ` on Fort ${d.fort + 1}` : d.use === "cross" && d.creature ? ` on ${nameOf(ctx, d.creature)}` : "";
      const label = d.value ? `${cap(d.colour)} die showing ${d.value}: ${USE[d.use] || d.use}${where}` : `${cap(d.colour)} die, not rolled yet`;
      return el("span", { class: ["die-slot", d.use !== "free" && "used"], "data-ref": `die:${side.seat}:${i}`, title: label, "aria-label": label },
        die(d.value || 0, { colour: d.colour, label }), el("small", {}, d.value ? (USE[d.use] || d.use) : "—"));
    }));
}

function resourcesRow(side) {
  const res = side.resources || [];
  const by = new Map();
  for (const r of res) {
    if (!by.has(r.colour)) by.set(r.colour, { all: 0, ready: 0 });
    const b = by.get(r.colour);
    b.all += 1;
    if (!r.rested) b.ready += 1;
  }
  const ready = res.filter((r) => !r.rested).length;
  return el("div", { class: "row db-resources", title: "resources: ready of all" },
    el("span", { class: "stat-label" }, `resources ${ready}/${res.length} ready`),
    [...by].map(([colour, b]) => el("span", { class: "db-res", style: { "--tint": `var(--c-${colour})` }, title: `${b.ready} of ${b.all} ${colour} ready` }, `${cap(colour)} ${b.ready}/${b.all}`)));
}

function handZone(p, view, ctx, mine) {
  if (Array.isArray(p.hand)) {
    return el("div", { class: "db-hand" }, el("span", { class: "stat-label" }, mine ? `your hand (${p.hand.length})` : `hand (${p.hand.length})`),
      p.hand.length ? el("div", { class: "row cards db-hand-cards" }, p.hand.map((id) => handCard(id, ctx, { small: !mine }))) : el("span", { class: "empty-note" }, "empty"));
  }
  const known = p.known || [];
  const hidden = Math.max(0, (p.hand || 0) - known.length);
  return el("div", { class: "db-hand" }, el("span", { class: "stat-label" }, `hand (${p.hand || 0})`),
    el("div", { class: "row cards db-hand-cards" }, known.map((id) => handCard(id, ctx, { small: true })),
      Array.from({ length: hidden }, () => cardBack("hidden card", { small: true }))));
}

function lifted(p, ctx) {
  if (!Array.isArray(p.lifted) || !p.lifted.length) {
    return typeof p.lifted === "number" && p.lifted ? el("p", { class: "db-note" }, `${ctx.name(p.seat)} is looking at a broken barrier.`) : null;
  }
  return el("div", { class: "db-lifted" }, el("span", { class: "stat-label" }, "broken barrier (only you see it)"),
    el("div", { class: "row cards" }, p.lifted.map((id) => handCard(id, ctx, { small: false }))));
}

function side(p, view, ctx) {
  const mine = ctx.isYou(p.seat);
  const acting = !ctx.over && (view.to_act || []).includes(p.seat);
  const top = (p.discard || []).at(-1);
  return el("section", { class: ["seat-zone", "db-side", mine && "mine", acting && "acting"], "aria-label": mine ? "your side" : `${ctx.name(p.seat)}'s side` },
    el("h4", { class: "db-side-head" }, ctx.name(p.seat), ctx.isYou(p.seat) ? " (you)" : "",
      view.decks?.[p.seat] ? el("span", { class: "db-deckname" }, ` · ${cap(view.decks[p.seat])}`) : null,
      p.seat === view.active && view.phase !== "mulligan" && view.phase !== "over" && !ctx.over ? el("span", { class: "db-turn-mark" }, " · this turn") : null),
    el("div", { class: "row db-counts" }, stat("deck", p.deck), stat("discard", (p.discard || []).length),
      top ? el("span", { class: "db-top", title: "top of the discard pile" }, `(${nameOf(ctx, top)} on top)`) : null),
    el("div", { class: "db-forts" }, (p.forts || []).map((f, i) => fortBox(f, i, p, view, ctx))),
    el("div", { class: "db-kit" }, diceRow(p, ctx), resourcesRow(p)),
    mine ? null : lifted(p, ctx),
    mine ? null : handZone(p, view, ctx, false)); // yours is in the hand's dock, at the foot of the board
}

// Whose turn, the phase, and who must act now and on what, in words.
function statusLines(view, ctx) {
  const lines = [];
  const acting = view.to_act || [];
  if (view.phase === "over" || ctx.over) {
    // ctx.over: also a game ended by a resignation, an abort or the clock, which the
    // rules' view does not know of
    lines.push(el("p", { class: "db-turn" }, "Game over."));
    return lines;
  }
  if (view.phase === "mulligan") {
    lines.push(el("p", { class: "db-turn" }, `Setup: each player may send back cards from the opening hand once. ${ctx.who(view.first)} ${ctx.isYou(view.first) ? "go" : "goes"} first.`));
  } else {
    lines.push(el("p", { class: "db-turn", "data-testid": "db-turn" }, `Turn ${view.turn}: ${ctx.isYou(view.active) ? "your turn" : `${ctx.name(view.active)}'s turn`} · ${PHASES[view.phase] || view.phase}`));
  }
  const head = view.pending?.[0];
  let what = null;
  if (head) what = pendingText(head, view, ctx);
  else if (view.phase === "mulligan") what = acting.length ? `Waiting for ${list(acting.map((s) => (ctx.isYou(s) ? "you" : ctx.name(s))))} to keep or send back cards.` : null;
  else if (acting.length) {
    const s = acting[0];
    const doing = { resource: "take a resource or skip it", main: "play cards, set dice, or go to combat", combat: "attack or end the turn", discard: "discard down to 7 cards" }[view.phase] || "act";
    what = ctx.isYou(s) ? `Your move: ${doing}.` : `${ctx.name(s)} is to move (${doing}).`;
  }
  if (what) lines.push(el("p", { class: "db-waiting", role: "status" }, what));
  return lines;
}

function pendingText(item, view, ctx) {
  const me = ctx.isYou(item.seat);
  if (item.kind === "block") {
    const fort = (view.attack?.fort ?? 0) + 1;
    const att = view.attack ? `${whose(ctx, view.active)} ${nameOf(ctx, view.attack.creature)}` : "the attacker";
    return me ? `${cap(att)} attacks your Fort ${fort}: block it with a standing creature on that fort, or let a barrier break.`
      : `${ctx.name(item.seat)} decides whether to block ${att} on their Fort ${fort}.`;
  }
  if (item.kind === "burst") {
    if (me && item.source) {
      const face = ctx.face(item.source);
      const burst = (face?.effects?.burst || []).map((e) => effectWords(e)).join(", then ");
      return burst ? `Your barrier ${nameOf(ctx, item.source)} broke: fire its Fort Burst (${burst}) or take it into your hand.` : `Your barrier ${nameOf(ctx, item.source)} broke: it has no Fort Burst; take it into your hand.`;
    }
    return `${ctx.name(item.seat)} looks at a broken barrier: a Fort Burst, or into their hand.`;
  }
  const e = pendingEffect(item, ctx);
  const from = item.where === "burst" ? `the Fort Burst of ${nameOf(ctx, item.source)}` : nameOf(ctx, item.source);
  return me ? `Choose the target of ${from}: ${effectWords(e)}.` : `${ctx.name(item.seat)} chooses the target of ${from}: ${effectWords(e)}.`;
}

// ---------------------------------------------------------------- the log

function possessed(ctx, seat, id) {
  return `${ctx.isYou(seat) ? "Your" : `${ctx.name(seat)}'s`} ${nameOf(ctx, id)}`;
}

function gameEndedText(data, ctx) {
  const winners = data.winners || [];
  const reason = data.reason || "";
  const losers = (ctx.seats || [0, 1]).map((_, i) => i).filter((i) => !winners.includes(i));
  const names = (seats) => list(seats.map((s) => (ctx.isYou(s) ? "you" : ctx.name(s))));
  const win = winners.length ? `${names(winners)} ${winners.length === 1 && !ctx.isYou(winners[0]) ? "wins" : "win"}` : "nobody wins";
  if (/empty deck/.test(reason)) return cap(`${names(losers)} had to draw from an empty deck, so ${win}.`);
  if (/forts/.test(reason)) return `Every fort of ${list(losers.map((s) => (ctx.isYou(s) ? "yours" : ctx.name(s))))} has fallen, so ${win}.`;
  return `The game is over and ${win}.`;
}

function describe(event, ctx) {
  const text = sentence(event, ctx);
  return typeof text === "string" ? cap(text) : text;
}

function sentence(event, ctx) {
  const d = event.data || {};
  const s = d.seat ?? event.seat;
  switch (event.type) {
    case "GameStarted": {
      const decks = (d.names || []).map((n, i) => `${ctx.who(i)} ${ctx.isYou(i) ? "play" : "plays"} ${cap(n)}`);
      return `${list(decks)}; ${ctx.isYou(d.first) ? "you go" : `${ctx.name(d.first)} goes`} first.`;
    }
    case "CardsDrawn": {
      if (Array.isArray(d.cards)) {
        if (d.cards.length > 3) return `${does(ctx, s, "draw", "draws")} ${cards(d.cards.length)}.`;
        return `${does(ctx, s, "draw", "draws")} ${list(d.cards.map((c) => nameOf(ctx, c)))}.`;
      }
      return `${does(ctx, s, "draw", "draws")} ${d.cards === 1 ? "a card" : cards(d.cards)}.`;
    }
    case "HandMulliganed": {
      const back = typeof d.returned === "number" ? d.returned : (d.returned || []).length;
      if (!back) return `${does(ctx, s, "keep", "keeps")} the opening hand.`;
      const drawn = Array.isArray(d.drawn) ? ` and ${ctx.isYou(s) ? "draw" : "draws"} ${list(d.drawn.map((c) => nameOf(ctx, c)))}` : ` and ${ctx.isYou(s) ? "draw" : "draws"} as many`;
      return `${does(ctx, s, "send", "sends")} back ${cards(back)}${drawn}.`;
    }
    case "BarriersPlaced": return `Two barriers go face down on each of ${whose(ctx, s)} forts.`;
    case "TurnStarted": return `Turn ${d.turn}: ${ctx.isYou(s) ? "your turn" : `${ctx.name(s)}'s turn`}.`;
    case "DiceRolled": return `${does(ctx, s, "roll", "rolls")} ${list((d.values || []).map(String))}.`;
    case "PhaseChanged":
      if (d.phase === "combat") return "Combat begins.";
      if (d.phase === "discard") return "More than 7 cards in hand: discard down to 7.";
      return null; // the resource step and the main phase follow the turn's start
    case "ResourcePlaced": return `${does(ctx, s, "put", "puts")} ${nameOf(ctx, d.card)} into ${ctx.isYou(s) ? "your" : "their"} resources.`;
    case "CardDiscarded": return `${does(ctx, s, "discard", "discards")} ${nameOf(ctx, d.card)}.`;
    case "DamageCleared": return null;
    case "GameEnded": return gameEndedText(d, ctx);
    case "CreatureSummoned": return `${does(ctx, s, "summon", "summons")} ${nameOf(ctx, d.card)} to Fort ${d.fort + 1}.`;
    case "SpellCast": return `${does(ctx, s, "cast", "casts")} ${nameOf(ctx, d.card)}.`;
    case "DieAssigned":
      if (d.fort !== undefined) return `${does(ctx, s, "set", "sets")} die ${d.die + 1} as a Dragoshield before Fort ${d.fort + 1}.`;
      return `${does(ctx, s, "Dragocross", "Dragocrosses")} ${nameOf(ctx, d.creature)} with die ${d.die + 1}.`;
    case "AbilityActivated": return `${does(ctx, s, "use", "uses")} ${nameOf(ctx, d.creature)} (${abilityWords(ctx.face(d.creature), d.ability)}).`;
    case "CreatureMoved": return `${does(ctx, s, "move", "moves")} ${nameOf(ctx, d.creature)} to Fort ${d.fort + 1}.`;
    case "CreaturesSwitched": return `${does(ctx, s, "switch", "switches")} the places of ${list((d.creatures || []).map((c) => nameOf(ctx, c)))}.`;
    case "EffectsQueued": return null;
    case "PendingResolved": return null;
    case "AttackDeclared": return `${does(ctx, s, "attack", "attacks")} ${whose(ctx, 1 - s)} Fort ${d.fort + 1} with ${nameOf(ctx, d.creature)}.`;
    case "AttackBlocked":
      if (d.creature) return `${does(ctx, s, "block", "blocks")} with ${nameOf(ctx, d.creature)}.`;
      return `${cap(whose(ctx, s))} Dragoshield meets the attack.`;
    case "AttackEnded": return null;
    case "CreatureDamaged": return `${possessed(ctx, s, d.creature)} takes ${d.amount ? `${d.amount} damage` : "no damage"}.`;
    case "ShieldDamaged": return `${cap(whose(ctx, s))} Dragoshield takes ${d.amount ? `${d.amount} damage` : "no damage"}.`;
    case "CreatureDestroyed": return `${possessed(ctx, s, d.creature)} is destroyed.`;
    case "ShieldDestroyed": return `${cap(whose(ctx, s))} Dragoshield breaks.`;
    case "BarrierBroken": return `A barrier of ${whose(ctx, s)} Fort ${d.fort + 1} breaks${d.card ? ` (${nameOf(ctx, d.card)})` : ""}.`;
    case "FortDestroyed": return `${cap(whose(ctx, s))} Fort ${d.fort + 1} falls, with no barrier left.`;
    case "FortBurst": return `${does(ctx, s, "fire", "fires")} the Fort Burst of ${nameOf(ctx, d.card)}.`;
    case "BarrierTaken": return d.card ? `${does(ctx, s, "take", "takes")} ${nameOf(ctx, d.card)} into ${ctx.isYou(s) ? "your" : "their"} hand.` : `${does(ctx, s, "take", "takes")} the broken barrier into ${ctx.isYou(s) ? "your" : "their"} hand.`;
    case "CreatureRested": return `${possessed(ctx, s, d.creature)} is rested.`;
    case "CreatureStood": return `${possessed(ctx, s, d.creature)} stands up.`;
    case "CreatureReturned": return `${possessed(ctx, s, d.creature)} goes back to ${ctx.isYou(s) ? "your" : "their"} hand.`;
    case "BarrierAdded": return `A new barrier goes onto ${whose(ctx, s)} Fort ${d.fort + 1}.`;
    case "DieRerolled": return `${does(ctx, s, "reroll", "rerolls")} die ${d.die + 1}: it shows ${d.value}.`;
    case "CardSearched": return `${does(ctx, s, "find", "finds")} ${nameOf(ctx, d.card)} in ${ctx.isYou(s) ? "your" : "their"} deck and ${ctx.isYou(s) ? "show" : "shows"} it.`;
    case "DeckShuffled": return `${does(ctx, s, "shuffle", "shuffles")} ${ctx.isYou(s) ? "your" : "their"} deck.`;
    default: return undefined;
  }
}

// ---------------------------------------------------------------- actions

function label(a, ctx) {
  const you = viewer(ctx);
  const n = (id) => nameOf(ctx, id);
  // a creature of yours with the fort it stands on: two copies of a card are told apart
  const on = (id) => { const f = findCreature(ctx.view, id); return f ? `${n(id)} (Fort ${f.c.fort + 1})` : n(id); };
  const head = ctx.view?.pending?.[0];
  switch (a.type) {
    case "mulligan": return a.cards.length ? `Send back ${list(a.cards.map(n))} and draw ${a.cards.length === 1 ? "a new card" : `${a.cards.length} new ones`}` : "Keep your hand";
    case "resource": return "Take a resource (top card of your deck)";
    case "skip_resource": return "Skip the resource";
    case "summon": return `Summon ${n(a.card)} to Fort ${a.fort + 1}${pays(a, ctx)}`;
    case "cast": {
      const e = ctx.face(a.card)?.effects?.spell || [];
      return `Cast ${n(a.card)}${e.length ? `: ${e.map((x) => effectWords(x)).join(", then ")}` : ""}${pays(a, ctx)}`;
    }
    case "shield": return `Dragoshield: ${dieWords(ctx, you, a.die)} before Fort ${a.fort + 1}`;
    case "cross": return `Dragocross ${on(a.creature)} with ${dieWords(ctx, you, a.die)}`;
    case "activate": return `Use ${on(a.creature)}: ${abilityWords(ctx.face(a.creature), a.ability)}${pays(a, ctx)}`;
    case "move": return `Move ${on(a.creature)} to Fort ${a.fort + 1}`;
    case "switch": return `Switch ${list(a.creatures.map((c) => creatureWords(ctx, c)))}`;
    case "combat": return "Go to combat";
    case "end_turn": return "End turn";
    case "attack": return `${on(a.creature)} attacks ${whose(ctx, 1 - you)} Fort ${a.fort + 1}`;
    case "burst": {
      const src = head?.source;
      const e = src ? ctx.face(src)?.effects?.burst || [] : [];
      return src ? `Fire the Fort Burst of ${n(src)}${e.length ? `: ${e.map((x) => effectWords(x)).join(", then ")}` : ""}` : "Fire the Fort Burst";
    }
    case "take": return head?.source ? `Take ${n(head.source)} into your hand` : "Take the barrier into your hand";
    case "target": {
      const e = head ? pendingEffect(head, ctx) : null;
      return cap(effectWords(e, ctx, targetWords(a.target, head, ctx)));
    }
    case "block": return `Block with ${on(a.creature)}`;
    case "no_block": return "Do not block (a barrier breaks)";
    case "discard": return `Discard ${n(a.card)}`;
    default: return null;
  }
}

function refs(a, ctx) {
  const you = viewer(ctx);
  const head = ctx.view?.pending?.[0];
  switch (a.type) {
    case "mulligan": return [...a.cards];
    case "summon": return [a.card, `fort:${you}:${a.fort}`];
    case "cast": return [a.card];
    case "shield": return [`die:${you}:${a.die}`, `fort:${you}:${a.fort}`];
    case "cross": return [`die:${you}:${a.die}`, a.creature];
    case "activate": return a.die !== undefined && a.die !== null ? [a.creature, `die:${you}:${a.die}`] : [a.creature];
    case "move": return [a.creature, `fort:${you}:${a.fort}`];
    case "switch": return [...a.creatures];
    case "attack": return [a.creature, `fort:${1 - you}:${a.fort}`];
    case "target": { const r = targetRef(a.target, head); return r === null ? [] : [r]; }
    case "block": return [a.creature];
    case "discard": return [a.card];
    default: return []; // resource, skip_resource, combat, end_turn, burst, take, no_block: the action bar
  }
}

function ending(view, outcome, ctx) {
  const o = outcome || view?.result;
  if (!o) return null;
  return gameEndedText({ winners: o.winners || [], reason: o.reason || "" }, ctx);
}

export default {
  render(view, ctx) {
    const you = viewer(ctx);
    const players = view.players || [];
    // the viewer's side at the bottom, the opponent's on top
    const order = you === null || you === undefined ? [...players].reverse() : [...players].sort((a, b) => (a.seat === you) - (b.seat === you));
    const attacker = view.attack ? findCreature(view, view.attack.creature) : null;
    const own = players.find((p) => ctx.isYou(p.seat));
    return el("div", { class: "board dragoborne" },
      el("div", { class: "db-status" }, statusLines(view, ctx)),
      view.attack && !ctx.over && view.pending?.[0]?.kind !== "block" ? el("div", { class: "attack-banner db-attack", role: "status" },
        `${attacker ? possessed(ctx, attacker.seat, view.attack.creature) : "A creature"} attacks ${whose(ctx, 1 - view.active)} Fort ${view.attack.fort + 1}.`) : null,
      el("div", { class: "seats db-seats" }, order.map((p) => side(p, view, ctx))),
      own ? handDock(lifted(own, ctx), handZone(own, view, ctx, true)) : null);
  },
  refs,
  label,
  describe,
  ending,
  faceKey: keyOf,
  terms: TERMS,
};
