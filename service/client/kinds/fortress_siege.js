// fortress-siege (Fortress v1.1): each seat's Fortress pile with its Tombstone and
// Graveyard, characters on a battlefield with armor and weapon, a hand of standard
// playing cards, and attacks answered out of turn (kinds/README.md).
//
// Places on the board (data-ref): a card in hand or a character on a battlefield or in a
// Graveyard by its id ("KS.0"), a Fortress "fortress:<seat>". Card faces come from
// GET /v1/kinds/fortress-siege/cards, keyed by the card's code without its deck number
// ("KS"): the cards stay standard playing cards, with what they do in Fortress under them.

import { el, stat } from "../dom.js";
import { cardBack, longName, parseStandard, pile, shortName, standardCard } from "../cards.js";
import { markTerms } from "../terms.js";
import { handDock } from "./common.js";

const faceKey = (id) => String(id).replace(/\.\d+$/, "");

// The words of the table a newcomer meets, in our own words, as the kind's How to play
// and RULINGS.md have them; terms.js marks them wherever they are read.
const TERMS = [
  { term: "Fortress", forms: ["fortress(?:es)?"], text: "Your own shuffled deck, face down: you draw from its top, and attacks and Barrages knock cards off it. You are out once its last card, the Tombstone, is drawn or knocked off." },
  { term: "Tombstone", text: "The bottom card of a Fortress, shown to everyone from the start. The highest Tombstone plays first; a player whose Tombstone is drawn or knocked off is out." },
  { term: "Graveyard", text: "A player's face-up pile of used cards: discards, spent weapons, raised shields, dead characters and cards knocked off their Fortress. Only an Angel of Life brings a character back." },
  { term: "Battlefield", text: "Where your deployed characters stand. Only a character there can be armored and armed, attack and defend." },
  { term: "Character", forms: ["characters?"], text: "A Jack, Queen or King. It needs armor to defend or to be attacked, and armor and a weapon to attack. A Jack fights characters, a Queen Fortresses, a King both." },
  { term: "Deploy", forms: ["deploy(?:s|ed)?"], text: "A move: put a Jack, Queen or King from your hand onto your battlefield as a character." },
  { term: "Armor", forms: ["armou?r(?:s|ed)?"], text: "A number card fitted to a character: its value is the damage the character can take. Damage stays, and the character dies when no armor is left." },
  { term: "Weapon", forms: ["weapons?", "arm", "arms", "armed", "equip"], text: "A number card given to an armored character: its value is the power of that character's attack. A weapon strikes once, then goes to the Graveyard." },
  { term: "Power", text: "How hard an attack hits: the value of the attacker's weapon. Each point takes one point of armor off a character, or one card off a Fortress." },
  { term: "Ready to attack", text: "This character has both armor and a weapon, so one of your moves may send it to attack." },
  { term: "Moves left", forms: ["moves? left", "(?:attack|this) move"], text: "A turn is exactly three moves, chosen freely: draw, deploy, armor, arm, attack, play an Ace or a Joker, discard or dismiss. Answering an attack costs no move." },
  { term: "Barrage", forms: ["barrages?", "jokers?"], text: "A Joker played as a move: five cards off the top of a Fortress of your choice, even your own, go to its Graveyard. Nothing stops it." },
  { term: "Angel of Life", forms: ["angels? of life"], text: "A red Ace played as a move: a character in a Graveyard comes back to its owner's battlefield with no armor, weapon or wounds. Nothing stops it." },
  { term: "Angel of Death", forms: ["angels? of death"], text: "A black Ace played as a move: any character on a battlefield goes to its Graveyard with its armor and weapon, whatever its armor. Nothing stops it." },
  { term: "Direct action", text: "A Joker or an Ace: played as a move, it works at once and no defence can stop it." },
  { term: "Dismiss", forms: ["dismiss(?:es|ed)?"], text: "A move: send one of your own characters to your Graveyard together with its armor and weapon." },
  { term: "Declaring attackers", forms: ["declar(?:e|es|ed|ing) (?:every )?attackers?"], text: "Under the default rules one attack move may send several armed characters, each at its own target. Pick them one after another, then say you are done; nothing is answered before that." },
  { term: "Defend", forms: ["defend(?:s|ing|ers?)?"], text: "Answering an attack, at no cost in moves: your armored characters may step in, each taking power up to its armor left, in the order you pick. A Jack guards characters, a Queen your Fortress, a King both." },
  { term: "Shield", forms: ["shields?"], text: "Number cards of one value raised from your hand when you are attacked: a pair blocks that value of the attack's power, three of a kind also strike it back. Shields then go to your Graveyard." },
  { term: "Two-Handed Shield", text: "A pair of number cards of one value, raised when you are attacked: it blocks that much of the attack's power." },
  { term: "Bladed Shield", forms: ["bladed shields?", "strikes? back", "striking back", "counterattack"], text: "Three number cards of one value, raised when you are attacked: they block that much power and deal as much back to the attacker, which dies if that uses up its armor." },
  { term: "Winds of Fate", text: "An option: shared decks, one per two players, are shuffled together and dealt out as everyone's Fortress, for a shorter game; either Ace may then be played as either Angel." },
  { term: "Set aside", text: "With Winds of Fate, the cards left over when the shared decks do not divide evenly: put away unseen for the whole game." },
  { term: "Number card", forms: ["number cards?"], text: "A 2 to 10. Its value counts as armor, as a weapon's power, or in a shield." },
];


function list(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

const cards = (n) => `${n} ${n === 1 ? "card" : "cards"}`;
const moves = (n) => `${n} ${n === 1 ? "move" : "moves"}`;

// "You draw" / "Greedy bot 2 draws"
function does(ctx, seat, you, other) {
  return `${ctx.who(seat)} ${ctx.isYou(seat) ? you : other}`;
}

// "your" / "Greedy bot 2's"
function whose(ctx, seat) {
  return ctx.isYou(seat) ? "your" : `${ctx.name(seat)}'s`;
}

const upper = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

function faceOf(ctx, id) {
  return (ctx.face && ctx.face(id)) || null;
}

// "King of Spades", "Joker": the face's name, else the standard card's.
function cardName(ctx, id) {
  return faceOf(ctx, id)?.name || longName(id);
}

// "the King of Spades", "a Joker"
function the(ctx, id) {
  const name = cardName(ctx, id);
  return parseStandard(id)?.rank === "JK" ? `a ${name}` : `the ${name}`;
}

// A number card's value: its face's "value", else its rank.
function valueOf(ctx, id) {
  const stat = (faceOf(ctx, id)?.stats || []).find((s) => s.label === "value");
  return stat ? stat.value : Number(parseStandard(id)?.rank) || 0;
}

// The character with this id on a battlefield, with its owner.
function findCharacter(view, id) {
  for (const p of view?.players || []) {
    const ch = (p.battlefield || []).find((c) => c.card === id);
    if (ch) return { ch, seat: p.seat };
  }
  return null;
}

// The Graveyard holding this card, if any.
function graveOf(view, id) {
  return (view?.players || []).find((p) => (p.graveyard || []).includes(id))?.seat ?? null;
}

// "Greedy bot 2's Jack of Hearts (armor 4 left)"
function characterWords(ctx, id, { armor = false } = {}) {
  const found = findCharacter(ctx.view, id);
  if (!found) return the(ctx, id);
  const left = armor && found.ch.armor ? ` (armor ${found.ch.armor_left} left)` : "";
  return `${whose(ctx, found.seat)} ${cardName(ctx, id)}${left}`;
}

// What a face says under the card, short: "value 7", "vs characters & Fortresses",
// "Angel of Life", "Barrage: 5 Fortress cards".
function caption(face) {
  if (!face) return null;
  const stats = face.stats || [];
  const by = Object.fromEntries(stats.map((s) => [s.label, s.value]));
  if (face.type === "Character" && by.attacks !== undefined) {
    const short = (v) => String(v).replace(" and ", " & ");
    return by.attacks === by.blocks ? `vs ${short(by.attacks)}` : `attacks ${short(by.attacks)}, blocks ${short(by.blocks)}`;
  }
  if (!stats.length) return face.type || null;
  if (face.type === "Number") return stats.map((s) => `${s.label} ${s.value}`).join(", ");
  return `${face.type}: ${stats.map((s) => `${s.value} ${s.label}`).join(", ")}`;
}

function summary(id, face) {
  if (!face) return longName(id);
  return [face.name, face.type, (face.stats || []).map((s) => `${s.label} ${s.value}`).join(", "), face.text].filter(Boolean).join(" · ");
}

function showFace(id, face) {
  document.querySelector("dialog.face-dialog")?.remove();
  const dialog = el("dialog", { class: "face-dialog siege-face", "aria-label": face?.name || longName(id) },
    el("div", { class: "siege-face-head" }, standardCard(id, { ref: null }), el("div", {},
      el("h3", {}, face?.name || longName(id)),
      face?.type ? el("p", { class: "muted" }, face.type) : null)),
    (face?.stats || []).length ? el("dl", { class: "face-dl" }, face.stats.flatMap((s) => [el("dt", {}, s.label), el("dd", {}, String(s.value))])) : null,
    face?.text ? el("p", {}, face.text) : null,
    el("form", { method: "dialog" }, el("button", { type: "button", onclick: (ev) => ev.target.closest("dialog").close() }, "Close")));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.appendChild(markTerms(dialog));
  dialog.showModal();
}

function infoButton(id, face) {
  const name = face?.name || longName(id);
  return el("button", {
    type: "button", class: "face-info siege-info", "aria-label": `about the ${name}`, title: `about the ${name}`,
    onclick: (ev) => { ev.stopPropagation(); showFace(id, face); },
  }, "i");
}

// A card of the hand (or a fallen character): the playing card with what it does in
// Fortress under it; the card is the place (data-ref), the "i" beside it opens its face.
function handCard(id, ctx, { small = false, ref = id } = {}) {
  const face = faceOf(ctx, id);
  const cap = caption(face);
  return el("div", { class: ["siege-slot", small && "small"] },
    el("div", { class: "siege-card", "data-ref": ref, "data-card": id, title: summary(id, face) },
      standardCard(id, { ref: null, small }),
      cap ? el("span", { class: "siege-cap" }, cap) : null),
    small ? null : infoButton(id, face));
}

function character(ch, ctx) {
  const face = faceOf(ctx, ch.card);
  const cap = caption(face);
  const ready = ch.armor && ch.weapon;
  const armorMax = ch.armor ? valueOf(ctx, ch.armor) : 0;
  return el("div", { class: "siege-slot character-slot" },
    el("div", {
      class: ["character", ready && "ready", ch.armor && ch.armor_left < armorMax && "wounded"],
      "data-ref": ch.card, "data-card": ch.card, title: summary(ch.card, face),
    },
    el("div", { class: "siege-card" }, standardCard(ch.card, { ref: null }), cap ? el("span", { class: "siege-cap" }, cap) : null),
    el("div", { class: "gear" },
      ch.armor
        ? el("span", { class: "gear-item armor" }, standardCard(ch.armor, { small: true, ref: null }),
          el("span", {}, "armor ", el("b", {}, String(ch.armor_left)), ch.armor_left < armorMax ? ` of ${armorMax}` : ""))
        : el("span", { class: "gear-item muted" }, "no armor yet"),
      ch.weapon
        ? el("span", { class: "gear-item weapon" }, standardCard(ch.weapon, { small: true, ref: null }), el("span", {}, "power ", el("b", {}, String(ch.power))))
        : (ch.armor ? el("span", { class: "gear-item muted" }, "no weapon yet") : null),
      ready ? el("span", { class: "ready-mark" }, "ready to attack") : null)),
    infoButton(ch.card, face));
}

function isCharacterCard(id) {
  const c = parseStandard(id);
  return !!c && ["J", "Q", "K"].includes(c.rank);
}

function seatZone(p, view, ctx) {
  const mine = p.seat === view.you;
  const acting = (view.to_act || []).includes(p.seat) && view.phase !== "over";
  const won = view.outcome?.winners?.includes(p.seat);
  const graveyard = p.graveyard || [];
  const fallen = graveyard.filter(isCharacterCard);
  return el("section", {
    class: ["seat-zone", mine && "mine", view.active === p.seat && view.phase !== "over" && "acting", !p.in_game && "out"],
    "aria-label": mine ? "your side of the table" : `${ctx.name(p.seat)}'s side of the table`, "data-seat": p.seat,
  },
  el("h4", { class: "siege-seat-head" }, el("span", {}, ctx.name(p.seat), ctx.isYou(p.seat) ? " (you)" : ""),
    won ? el("span", { class: "badge win" }, "winner") : null,
    !p.in_game ? el("span", { class: "badge out" }, "out") : null,
    acting ? el("span", { class: "badge to-act" }, view.phase === "defending" ? "defending" : "to act") : null),
  el("div", { class: "row piles" },
    el("div", { class: "fortress-pile", "data-ref": `fortress:${p.seat}`, title: `${whose(ctx, p.seat)} Fortress: ${cards(p.fortress)} left, the Tombstone last` },
      pile(ctx.isYou(p.seat) ? "Your Fortress" : "Fortress", p.fortress)),
    el("div", { class: "pile tomb", title: `Tombstone: ${longName(p.tombstone)} (the bottom card of the Fortress)` },
      p.tombstone ? standardCard(p.tombstone, { small: true, ref: null }) : cardBack(),
      el("span", { class: "pile-label" }, "Tombstone")),
    pile("Graveyard", graveyard.length, { top: graveyard.length ? standardCard(graveyard.at(-1), { small: true, ref: null }) : null })),
  el("div", { class: "battlefield", "aria-label": "battlefield" },
    (p.battlefield || []).length ? p.battlefield.map((ch) => character(ch, ctx)) : el("span", { class: "empty-note" }, "No characters on the battlefield.")),
  ctx.isYou(p.seat) ? null : handZone(p, ctx), // yours is in the hand's dock, at the foot of the board
  fallen.length ? el("div", { class: "fallen" }, el("span", { class: "siege-label" }, "Characters in the Graveyard"),
    el("div", { class: "row cards" }, fallen.map((id) => handCard(id, ctx, { small: true })))) : null,
  graveyard.length ? el("details", { class: "graveyard" }, el("summary", {}, `Graveyard (${graveyard.length})`),
    el("div", { class: "row cards" }, graveyard.map((id) => standardCard(id, { small: true, ref: null })))) : null);
}

function handZone(p, ctx) {
  const label = p.seat === ctx.view?.you ? `Your hand (${p.hand_size})` : `${ctx.name(p.seat)}'s hand (${p.hand_size})`;
  return el("div", { class: "hand" }, el("span", { class: "siege-label" }, label),
    Array.isArray(p.hand)
      ? (p.hand.length ? el("div", { class: "row cards" }, p.hand.map((id) => handCard(id, ctx))) : el("span", { class: "empty-note" }, "No cards in hand."))
      : el("div", { class: "row cards" }, Array.from({ length: p.hand_size || 0 }, () => cardBack("hidden card", { small: true }))));
}

function shieldWords(ctx, shield) {
  const value = valueOf(ctx, shield[0]);
  const names = shield.map((id) => shortName(id)).join(" + ");
  return shield.length >= 3 ? `${names} (blocks ${value}, strikes back ${value})` : `${names} (blocks ${value})`;
}

function attackWords(a, ctx) {
  const target = a.target ? `${whose(ctx, a.target_seat)} ${cardName(ctx, a.target)}` : `${whose(ctx, a.target_seat)} Fortress`;
  return `${upper(whose(ctx, a.seat))} ${cardName(ctx, a.attacker)} (power ${a.power}) attacks ${target}`;
}

function attackBanner(view, ctx) {
  const attack = view.attack;
  const charge = view.charge || [];
  if (!attack && !charge.length) return null;
  const rows = [];
  if (attack) {
    rows.push(el("p", {}, el("b", {}, `${attackWords(attack, ctx)}.`)));
    const defence = [];
    if (attack.defenders?.length) defence.push(`Defending: ${list(attack.defenders.map((id) => cardName(ctx, id)))}.`);
    if (attack.shields?.length) defence.push(`Shields: ${attack.shields.map((s) => shieldWords(ctx, s)).join("; ")}.`);
    if (defence.length) rows.push(el("p", {}, defence.join(" ")));
    if (ctx.isYou(attack.target_seat)) rows.push(el("p", { class: "hint" }, "Pick a character of yours to defend or a card of a pair or three of a kind to raise a shield, then press Done defending."));
  }
  if (charge.length) {
    rows.push(el("p", {}, attack ? "Also in this attack move: " : "Attackers declared so far: ", charge.map((a) => attackWords(a, ctx)).join("; "), "."));
  }
  if (!attack && view.phase === "declaring" && ctx.isYou(view.active)) {
    rows.push(el("p", { class: "hint" }, "Pick another armed character and its target to join the attack, or press Done declaring attackers."));
  }
  return el("div", { class: "attack-banner", role: "status" }, rows);
}

function infoBar(view, ctx) {
  const active = view.active;
  const over = view.phase === "over";
  const turn = ctx.isYou(active) ? "Your turn" : `${ctx.name(active)}'s turn`;
  let doing = null;
  if (view.phase === "defending" && view.attack) doing = `${ctx.isYou(view.attack.target_seat) ? "You are" : `${ctx.name(view.attack.target_seat)} is`} answering an attack`;
  else if (view.phase === "declaring") doing = `${ctx.isYou(active) ? "You are" : `${ctx.name(active)} is`} declaring attackers`;
  return el("div", { class: "info-bar siege-info-bar" },
    el("span", { class: "siege-phase" }, over ? "Game over" : upper(turn)),
    !over && active !== null && active !== undefined ? el("span", { class: "moves-left", title: `${moves(view.moves_left)} left this turn` },
      el("span", { class: "pips", "aria-hidden": "true" }, "●".repeat(Math.max(0, view.moves_left || 0))),
      ` ${moves(view.moves_left)} left`) : null,
    doing ? el("span", { class: "siege-doing" }, upper(doing)) : null,
    view.winds_of_fate ? stat("", "Winds of Fate") : null,
    view.fixed_deal ? stat("", "fixed deal") : null,
    view.set_aside ? stat("set aside", view.set_aside) : null);
}

function describeResolved(d, ctx) {
  const target = d.target ? `${whose(ctx, d.target_seat)} ${cardName(ctx, d.target)}` : `${whose(ctx, d.target_seat)} Fortress`;
  const bits = [];
  if (d.blocked) bits.push(`${d.blocked} blocked by shields`);
  if (d.attacker_slain) bits.push("the attacker fell to the counterattack");
  if (d.absorbed_by_defenders) bits.push(`${d.absorbed_by_defenders} taken by defenders`);
  bits.push(d.reached_target ? `${d.reached_target} reached ${target}` : `nothing reached ${target}`);
  return `Attack of power ${d.power} by ${whose(ctx, d.seat)} ${cardName(ctx, d.attacker)}: ${list(bits)}.`;
}

export default {
  faceKey,
  terms: TERMS,

  render(view, ctx) {
    const players = view.players || [];
    const order = [...players.filter((p) => p.seat !== view.you), ...players.filter((p) => p.seat === view.you)];
    const own = players.find((p) => ctx.isYou(p.seat));
    return el("div", { class: "board siege" },
      infoBar(view, ctx),
      attackBanner(view, ctx),
      el("div", { class: "seats" }, order.map((p) => seatZone(p, view, ctx))),
      own ? handDock(handZone(own, ctx)) : null);
  },

  refs(a) {
    switch (a.type) {
      case "deploy": case "discard": return [a.card];
      case "armor": case "equip": case "angel_of_life": case "angel_of_death": return [a.card, a.character];
      case "barrage": return [a.card, `fortress:${a.fortress}`];
      case "attack": return [a.attacker, a.fortress !== undefined ? `fortress:${a.fortress}` : a.character];
      case "discard_character": case "assign_defender": return [a.character];
      case "add_shield": return [...a.cards];
      default: return []; // draw, done_attacking, done_defending: the board's action bar
    }
  },

  label(a, ctx) {
    const name = (id) => cardName(ctx, id);
    switch (a.type) {
      case "draw": return "Draw a card";
      case "deploy": return `Deploy the ${name(a.card)}`;
      case "armor": return `Armor ${characterWords(ctx, a.character)} with the ${name(a.card)} (armor ${valueOf(ctx, a.card)})`;
      case "equip": return `Arm ${characterWords(ctx, a.character)} with the ${name(a.card)} (power ${valueOf(ctx, a.card)})`;
      case "attack": {
        const found = findCharacter(ctx.view, a.attacker);
        const power = found ? ` (power ${found.ch.power})` : "";
        if (a.fortress !== undefined) return `Attack ${whose(ctx, a.fortress)} Fortress with the ${name(a.attacker)}${power}`;
        return `Attack ${characterWords(ctx, a.character, { armor: true })} with the ${name(a.attacker)}${power}`;
      }
      case "barrage": return `Barrage ${ctx.isYou(a.fortress) ? "your own" : whose(ctx, a.fortress)} Fortress with the ${name(a.card)}`;
      case "angel_of_life": {
        const owner = graveOf(ctx.view, a.character);
        return `Angel of Life: bring the ${name(a.character)} back${owner !== null ? ` to ${whose(ctx, owner)} battlefield` : ""}`;
      }
      case "angel_of_death": return `Angel of Death: send ${characterWords(ctx, a.character)} to the Graveyard`;
      case "discard": return `Discard the ${name(a.card)}`;
      case "discard_character": return `Dismiss the ${name(a.character)} with its armor and weapon`;
      case "done_attacking": return "Done declaring attackers";
      case "assign_defender": return `Defend with ${characterWords(ctx, a.character, { armor: true })}`;
      case "add_shield": return `Raise a shield: ${shieldWords(ctx, a.cards)}`;
      case "done_defending": return "Done defending";
      default: return null;
    }
  },

  // A sentence begins with a capital even when a seat's name does not ("random bot 1").
  describe(event, ctx) {
    const text = sentence(event, ctx);
    return typeof text === "string" ? upper(text) : text;
  },

  ending(view, outcome, ctx) {
    const winners = outcome?.winners || [];
    if (winners.length !== 1) return null;
    const w = winners[0];
    return ctx.isYou(w) ? "Your Fortress is the last one standing: you win." : upper(`${ctx.name(w)}'s Fortress is the last one standing.`);
  },
};

function sentence(event, ctx) {
  const d = event.data || {};
  const s = d.seat ?? event.seat;
  switch (event.type) {
    case "GameStarted": {
      const sizes = d.fortress_sizes || (d.fortresses || []).map((f) => f.length);
      const tombs = (d.tombstones || []).map((id, i) => `${ctx.isYou(i) ? "yours" : `${ctx.name(i)}'s`} is the ${cardName(ctx, id)}`);
      const size = sizes.length && sizes.every((n) => n === sizes[0]) ? ` of ${cards(sizes[0])}` : "";
      const dealt = d.winds_of_fate ? `Winds of Fate: the shared cards are shuffled and dealt, a Fortress${size} each` : `Each player shuffles a Fortress${size}`;
      return `${dealt}; the Tombstones are shown: ${upper(list(tombs))}.`;
    }
    case "FirstPlayerChosen":
      if (d.stated) return `${ctx.who(d.seat)} ${ctx.isYou(d.seat) ? "go" : "goes"} first, as the game was set up.`;
      return (d.tied || []).length > 1
        ? `${upper(list(d.tied.map((i) => ctx.who(i))))} tie for the highest Tombstone; ${ctx.who(d.seat)} ${ctx.isYou(d.seat) ? "go" : "goes"} first, by lot.`
        : `${does(ctx, d.seat, "have", "has")} the highest Tombstone and ${ctx.isYou(d.seat) ? "go" : "goes"} first.`;
    case "CardDrawn": return d.card ? `${does(ctx, s, "draw", "draws")} ${the(ctx, d.card)}.` : `${does(ctx, s, "draw", "draws")} a card.`;
    case "TombstoneDrawn": return `${does(ctx, s, "draw", "draws")} ${ctx.isYou(s) ? "your" : "their"} Tombstone, ${the(ctx, d.card)}.`;
    case "CharacterDeployed": return `${does(ctx, s, "deploy", "deploys")} ${the(ctx, d.card)}.`;
    case "ArmorFitted": return `${does(ctx, s, "armor", "armors")} ${the(ctx, d.character)} with ${the(ctx, d.card)} (armor ${valueOf(ctx, d.card)}).`;
    case "WeaponFitted": return `${does(ctx, s, "arm", "arms")} ${the(ctx, d.character)} with ${the(ctx, d.card)} (power ${valueOf(ctx, d.card)}).`;
    case "CardDiscarded": return `${does(ctx, s, "discard", "discards")} ${the(ctx, d.card)}.`;
    case "CharacterDismissed": return `${does(ctx, s, "dismiss", "dismisses")} ${the(ctx, d.character)} with its armor and weapon.`;
    case "BarrageFired": {
      const own = d.target_seat === s;
      const where = own ? (ctx.isYou(s) ? "your own Fortress" : "their own Fortress") : `${whose(ctx, d.target_seat)} Fortress`;
      return `${does(ctx, s, "fire", "fires")} a Barrage at ${where}: ${cards((d.cards || []).length)} go to the Graveyard.`;
    }
    case "AngelOfLifePlayed": return `${does(ctx, s, "play", "plays")} an Angel of Life: ${the(ctx, d.character)} returns to ${whose(ctx, d.owner)} battlefield.`;
    case "AngelOfDeathPlayed": return `${does(ctx, s, "play", "plays")} an Angel of Death on ${whose(ctx, d.owner)} ${cardName(ctx, d.character)}.`;
    case "AttackDeclared": {
      const target = d.target ? `${whose(ctx, d.target_seat)} ${cardName(ctx, d.target)}` : `${whose(ctx, d.target_seat)} Fortress`;
      return `${upper(whose(ctx, s))} ${cardName(ctx, d.attacker)} ${d.joins ? "also attacks" : "attacks"} ${target} with power ${d.power}.`;
    }
    case "AttackersDeclared": return `${does(ctx, s, "have", "has")} declared every attacker of this move.`;
    case "DefenderAssigned": return `${does(ctx, s, "defend", "defends")} with ${the(ctx, d.character)}.`;
    case "ShieldRaised": return `${does(ctx, s, "raise", "raises")} a shield of ${list((d.cards || []).map((id) => shortName(id)))}, blocking ${valueOf(ctx, d.cards[0])}${d.cards.length >= 3 ? ` and striking back ${valueOf(ctx, d.cards[0])}` : ""}.`;
    case "AttackAnswered": return `${does(ctx, s, "have", "has")} answered that attack; the next one is answered now.`;
    case "AttackerCountered": return `A Bladed Shield strikes back: ${whose(ctx, s)} ${cardName(ctx, d.character)} takes ${d.damage} damage.`;
    case "CharacterWounded": return `${upper(whose(ctx, s))} ${cardName(ctx, d.character)} takes ${d.damage} damage.`;
    case "CharacterSlain": return `${upper(whose(ctx, s))} ${cardName(ctx, d.character)} dies and goes to the Graveyard${(d.cards || []).length > 1 ? " with its cards" : ""}.`;
    case "ShieldsDiscarded": return null; // the shields' fate is in ShieldRaised and AttackResolved
    case "WeaponSpent": return `${upper(whose(ctx, s))} ${cardName(ctx, d.character)} has used up its weapon, ${the(ctx, d.card)}.`;
    case "FortressBreached": return `${upper(whose(ctx, d.target_seat ?? s))} Fortress loses ${cards((d.cards || []).length)}.`;
    case "AttackResolved": return describeResolved(d, ctx);
    case "PlayerDefeated": return ctx.isYou(s) ? "Your Fortress has fallen: you are out of the game." : `${ctx.name(s)}'s Fortress has fallen: ${ctx.name(s)} is out of the game.`;
    case "TurnPassed": return ctx.isYou(s) ? "Your turn begins." : `${ctx.name(s)}'s turn begins.`;
    default: return undefined;
  }
}
