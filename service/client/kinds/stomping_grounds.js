// stomping-grounds: a map of realm cards laid edge to edge, dragons flying over it.
//
// The map is a grid with its columns lettered (A, B, ...) and its rows numbered from 1
// at the top, over the realms and every empty space an action may use; each cell is
// data-ref "x,y" (the server's coordinates). Other places an action uses:
//   a card in your hand, a challenge on the map, a hoard      -> its card id
//   a realm or hoard offered from your deck (setup, a search) -> "deck:<slug>"
//   a dragon on the map                                       -> "dragon:<seat>"
//   your own piles                                            -> "pile:deck", "pile:stash", "pile:junk", "pile:burned"
// Faces come from GET /v1/kinds/stomping-grounds/cards, keyed by card slug.

import { el, stat } from "../dom.js";
import { cardBack, faceCard, namedTitle } from "../cards.js";
import { handDock } from "./common.js";

// The words of the table a newcomer meets, in our own words, as the kind's How to play
// and RULINGS.md have them; terms.js marks them wherever they are read.
const TERMS = [
  { term: "Cards left", forms: ["cards left"], text: "Your cards in deck, stash and junk together (your hand does not count). The first dragon to end its own turn with none left wins." },
  { term: "Deck", forms: ["decks?"], text: "Your 60 cards face down: your dragon's strength to spend. Luck is drawn from its top, and your junk goes back under it at the end of every turn." },
  { term: "Stash", forms: ["stash(?:es|ed)?"], text: "Cards taken face up off the top of your deck. You pay costs from it and may draw its top card in your reclaim phase. To stash 2 is to move two cards there." },
  { term: "Junk", forms: ["junk(?:s|ed)?"], text: "Your face-up pile of spent cards and paid costs. At the end of your turn it goes under your deck, so those cards come round again." },
  { term: "Burn", forms: ["burn(?:s|ed|ing)?", "burn piles?"], text: "Putting cards of your choice from your deck, stash, junk or hand on your burn pile: they are out of your way for good, unless a card brings them back to the junk." },
  { term: "Realm", forms: ["realms?"], text: "A card laid on the shared map, edge to edge with the others. Its text works while it is face up and no challenge covers it." },
  { term: "Border", forms: ["(?:black|white)[- ]bordered", "(?:black |white )?borders?"], text: "A black border stops a dragon's flight on that space; a white one lets it fly on." },
  { term: "Razed", forms: ["raz(?:e|es|ed|ing)"], text: "A razed realm is turned face down: its text no longer works, and dragons fly over it as if its border were white." },
  { term: "Challenge", forms: ["challenges?"], text: "A card laid on a realm, taking over its border and text. A dragon standing on it may attempt it: if the luck drawn plus bonuses reaches its Needs number, it does what the card says." },
  { term: "Attempt", forms: ["attempt(?:s|ed)?"], text: "Once a turn, in your challenge phase, your dragon may try the challenge it stands on, anyone's: draw luck and add your bonuses." },
  { term: "Needs", forms: ["needs(?: luck)?"], text: "The number a challenge asks for: the luck drawn plus your bonuses must reach it." },
  { term: "Luck", forms: ["luck"], text: "The number on a card turned up from the top of a deck, for a challenge, a dragon challenge or who goes first. Bonuses from cards add to it." },
  { term: "Roam", forms: ["roam(?:s|ed|ing)?"], text: "In your roam phase, each of your challenges marked Roam N may move up to N realms, unless a dragon is on it." },
  { term: "Dragon challenge", forms: ["dragon challenges?", "challenges? (?:your|[^:.;()]{1,40}?'s) dragon"], text: "When your dragon shares a realm with another, you must challenge it: pick a colour, both draw luck, the higher total wins (ties go to you) and pushes the loser to a realm next to it." },
  { term: "Red, white or blue", forms: ["red, white or blue", "(?:red|white|blue)(?= challenges?)", "(?<=(?:dragon: |challenge, |\\())(?:red|white|blue)"], text: "The colour of a challenge card or of a dragon challenge. A luck bonus that names a colour counts only in challenges of that colour." },
  { term: "Push", forms: ["push(?:es|ed)?"], text: "After a dragon challenge, the winner moves the loser to a realm next to it." },
  { term: "Hoard", forms: ["hoards?"], text: "A card that stays in front of you and keeps working: luck bonuses, or texts at the start or end of turns. Some cards need a named hoard of yours to be played." },
  { term: "Break", forms: ["break(?:s)?", "broken"], text: "Putting an opponent's hoard into its owner's junk, as a card may let you do." },
  { term: "Action", forms: ["action cards?", "^action$"], text: "A card that does what it says, then goes to your junk. It says when it may be played: your reclaim phase, your challenge phase, or someone else's turn." },
  { term: "Cost", forms: ["cost"], text: "What playing this card costs: that many cards go from your stash into your junk." },
  { term: "Flight", forms: ["flight", "fl(?:y|ies|ew)"], text: "Your dragon flies from realm to realm, one edge at a time, never twice to the same one, stashing a card per step. A black border or another dragon stops it." },
  { term: "Land", forms: ["land(?:s|ed|ing)?"], text: "Where a flight ends. A realm's landing text works for the dragon that lands on it after flying." },
  { term: "Reclaim", forms: ["reclaim"], text: "The phase near the end of your turn: draw the top of your stash, junk cards from your hand or burn pile, and play cards from your hand, as often as you like." },
  { term: "May respond", forms: ["may respond", "waiting to resolve"], text: "When a card, an attempt or a dragon challenge is played, or a phase ends, the others may answer with cards they are allowed to play then; the last one played resolves first." },
];

const SEAT_COLOURS = ["#c0392b", "#2e6fb7", "#2f8f46", "#8e44ad"];
const PHASES = {
  setup: "setup", setup_dragons: "setup", start: "start of turn", challenge: "challenge", flight: "flight", roam: "roam",
  dragon: "dragon challenge", reclaim: "reclaim", end: "end of turn", end_effects: "end of turn", end_check: "end of turn", over: "game over",
};
const PILE_WORDS = { deck: "deck", stash: "stash", junk: "junk", hand: "hand", burned: "burn pile" };

// The realm names by position, for the log (events name places, not realms): filled
// from every view drawn and every realm placed. Realms never move once placed.
const realmNames = new Map();

const key = (at) => `${at[0]},${at[1]}`;
const slugOf = (id) => { const m = /^s\d+-(.+)-\d+$/.exec(String(id)); return m ? m[1] : String(id); };
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const cards = (n) => plural(n, "card");

function cardName(id, ctx) { return ctx.face ? (ctx.face(id)?.name || namedTitle(slugOf(id))) : namedTitle(slugOf(id)); }
function face(id, ctx) { return ctx.face ? ctx.face(id) : null; }

// "You draw" / "Greedy bot 2 draws": the subject and its verb from the viewer's side.
function says(ctx, seat, you, other) { return `${ctx.who(seat)} ${ctx.isYou(seat) ? you : other}`; }
function their(ctx, seat) { return ctx.isYou(seat) ? "your" : "their"; }
function whom(ctx, seat) { return ctx.isYou(seat) ? "you" : ctx.name(seat); }
function whose(ctx, seat) { return ctx.isYou(seat) ? "your" : `${ctx.name(seat)}'s`; }
function realmAt(at) { const name = at ? realmNames.get(key(at)) : null; return name || "a realm"; }

// The grid's extent: every realm and every space a legal action names.
function spots(view, actions) {
  const out = new Set();
  for (const a of actions || []) for (const k of ["to", "at"]) if (Array.isArray(a[k])) out.add(key(a[k]));
  return out;
}

function bounds(view, actions) {
  const cells = (view.realms || []).map((r) => r.at).concat([...spots(view, actions)].map((k) => k.split(",").map(Number)));
  if (!cells.length) return null;
  const xs = cells.map((c) => c[0]); const ys = cells.map((c) => c[1]);
  return { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };
}

function columnName(i) {
  let s = ""; let n = i;
  do { s = String.fromCharCode(65 + (n % 26)) + s; n = Math.floor(n / 26) - 1; } while (n >= 0);
  return s;
}

// "B3": column letter from the left, row number from the top, of the grid as drawn now.
function cellName(at, box) {
  if (!box) return "";
  return `${columnName(at[0] - box.minX)}${box.maxY - at[1] + 1}`;
}

function placeName(at, ctx) {
  const box = bounds(ctx.view || {}, ctx.actions);
  const realm = (ctx.view?.realms || []).find((r) => r.at[0] === at[0] && r.at[1] === at[1]);
  const cell = cellName(at, box);
  return realm ? `${realm.name} (${cell})` : `the empty space ${cell}`;
}

// A realm's cell holds three kinds of place: the realm itself (its name and text), its
// challenge and the dragons on it. The realm's place is a part of the cell beside the
// other two, never around them, so when the board makes more than one of them buttons at
// once (a dragon here picked to fly, with this realm among its targets; a card picked
// while the challenge here can be attempted) no button holds another.
function realmCell(r, view, ctx, path, cell) {
  const challenge = r.challenge;
  return el("div", {
    class: ["realm", r.razed && "razed", path.has(key(r.at)) && "path", `border-${r.border}`],
    style: { "--owner": SEAT_COLOURS[r.owner] || "#777" },
  },
  el("div", {
    class: "realm-place", "data-ref": key(r.at),
    title: [`${cell}: ${r.name} (${r.kind || "realm"}), ${r.border} border, ${ctx.name(r.owner)}'s`, r.razed ? "razed" : null,
      face(r.card, ctx)?.text, challenge ? `challenge ${challenge.name}: needs ${challenge.number}, ${challenge.colour}` : null].filter(Boolean).join(" · "),
  },
  el("span", { class: "cell-name", "aria-hidden": "true" }, cell),
  el("span", { class: "realm-name" }, r.name),
  el("span", { class: "realm-kind" }, r.razed ? "razed" : (r.kind || ""), ` · ${r.border}`),
  !r.razed && !challenge && face(r.card, ctx)?.text ? el("span", { class: "realm-text" }, face(r.card, ctx).text) : null),
  challenge ? el("span", {
    class: ["challenge", `c-${challenge.colour}`, r.challenge_razed && "razed"], "data-ref": challenge.card,
    title: `${challenge.name}: ${challenge.colour} challenge, needs luck ${challenge.number}${challenge.roam ? `, roams ${challenge.roam}` : ""}. ${face(challenge.card, ctx)?.text || ""} (${ctx.name(challenge.controller)}'s)`,
  }, el("b", {}, String(challenge.number)), " ", challenge.name) : null,
  (r.dragons || []).length ? el("span", { class: "dragons" }, r.dragons.map((s) => el("span", {
    class: "dragon-token", "data-ref": `dragon:${s}`, style: { background: SEAT_COLOURS[s] },
    title: `${whose(ctx, s)} dragon`, "aria-label": `${whose(ctx, s)} dragon`,
  }, String(s + 1)))) : null);
}

function realmMap(view, ctx) {
  const box = bounds(view, ctx.actions);
  if (!box) return el("p", { class: "empty-note" }, "No realms yet: the first one goes in the middle.");
  const byAt = new Map((view.realms || []).map((r) => [key(r.at), r]));
  const open = spots(view, ctx.actions);
  const path = new Set((view.flight_path || []).map(key));
  const cols = box.maxX - box.minX + 1;
  const grid = el("div", {
    class: "sg-map", role: "group", "aria-label": "the realm map: columns lettered from the left, rows numbered from the top",
    style: { "grid-template-columns": `1.4rem repeat(${cols}, minmax(var(--sg-cell, 5.2rem), 1fr))` },
  });
  grid.appendChild(el("span", { class: "axis corner", "aria-hidden": "true" }));
  for (let x = box.minX; x <= box.maxX; x += 1) grid.appendChild(el("span", { class: "axis col", "aria-hidden": "true" }, columnName(x - box.minX)));
  for (let y = box.maxY; y >= box.minY; y -= 1) {
    grid.appendChild(el("span", { class: "axis row", "aria-hidden": "true" }, String(box.maxY - y + 1)));
    for (let x = box.minX; x <= box.maxX; x += 1) {
      const k = `${x},${y}`;
      const cell = cellName([x, y], box);
      const r = byAt.get(k);
      if (r) grid.appendChild(realmCell(r, view, ctx, path, cell));
      else if (open.has(k)) grid.appendChild(el("div", { class: ["realm", "void", "spot"], "data-ref": k, title: `empty space ${cell}`, "aria-label": `empty space ${cell}` }, el("span", { class: "cell-name" }, cell)));
      else grid.appendChild(el("div", { class: ["realm", "void"], "aria-hidden": "true" }));
    }
  }
  // Wider than the screen, the map scrolls in its own box, which the keyboard can reach.
  return el("div", { class: "sg-map-wrap", tabindex: 0, role: "region", "aria-label": "the realm map, scrolling sideways" }, grid);
}

// Cards of your deck an owed choice offers (realms to place at setup, a search).
function offers(view, ctx) {
  const slugs = [...new Set((ctx.actions || []).filter((a) => a.type === "place_realm" || a.type === "search").map((a) => a.card))];
  if (!slugs.length) return null;
  const what = (ctx.actions || []).some((a) => a.type === "place_realm") ? "Choose a realm from your deck, then an empty space on the map" : "Choose a card from your deck";
  return el("section", { class: "zone sg-offers", "aria-label": "cards from your deck" }, el("h3", {}, what),
    el("div", { class: "row cards" }, slugs.map((s) => faceOf(s, ctx, { ref: `deck:${s}`, small: true }))));
}

// A card from its face, its "i" button (the face's details) beside the card and not in it:
// a card the board makes a button must hold no other control (axe: nested-interactive).
function faceOf(id, ctx, { ref = id, small = false } = {}) {
  const node = faceCard(id, face(id, ctx), { ref, small });
  const info = node.querySelector(".face-info");
  if (!info) return node;
  info.remove();
  return el("div", { class: ["sg-card", small && "small"] }, node, info);
}

function pile(label, count, ref, top, ctx) {
  return el("div", { class: "sg-pile", "data-ref": ref, title: `${label}: ${count}${top ? `, ${cardName(top, ctx)} on top` : ""}` },
    el("span", { class: "stat-label" }, label), " ", el("b", {}, String(count)),
    top ? el("span", { class: "sg-top" }, cardName(top, ctx)) : null);
}

function handZone(p, ctx) {
  const shown = Array.isArray(p.hand);
  const yours = ctx.isYou(p.seat);
  const hand = shown ? p.hand : [];
  return el("div", { class: "hand" }, el("span", { class: "stat-label" }, yours ? `your hand (${hand.length})` : `hand (${shown ? hand.length : p.hand})`),
    shown ? (hand.length ? el("div", { class: "row cards" }, hand.map((id) => faceOf(id, ctx, { small: !yours }))) : el("span", { class: "empty-note" }, " empty"))
      : el("div", { class: "row cards" }, Array.from({ length: Math.min(p.hand || 0, 12) }, () => cardBack("hidden card", { small: true })),
        (p.revealed_hand || []).length ? el("span", { class: "muted small" }, `seen: ${p.revealed_hand.map((id) => cardName(id, ctx)).join(", ")}`) : null));
}

function seatZone(p, view, ctx) {
  const yours = ctx.isYou(p.seat);
  const ref = (name) => (yours ? `pile:${name}` : null);
  return el("div", { class: ["seat-zone", "sg-seat", yours && "mine", view.active === p.seat && "acting"], style: { "--owner": SEAT_COLOURS[p.seat] } },
    el("h4", {}, el("span", { class: "dragon-token", style: { background: SEAT_COLOURS[p.seat] }, "aria-hidden": "true" }, String(p.seat + 1)),
      ` ${ctx.name(p.seat)}${ctx.isYou(p.seat) ? " (you)" : ""} — ${p.dragon_name}, ${p.deck_key} deck `, stat("cards left", p.remaining)),
    el("div", { class: "sg-piles" },
      pile("deck", p.deck, ref("deck"), null, ctx),
      pile("stash", (p.stash || []).length, ref("stash"), (p.stash || []).at(-1), ctx),
      pile("junk", (p.junk || []).length, ref("junk"), (p.junk || []).at(-1), ctx),
      pile("burned", (p.burned || []).length, ref("burned"), (p.burned || []).at(-1), ctx),
      p.luck_bonus || p.extra_luck ? stat("luck this turn", `${p.luck_bonus >= 0 ? "+" : ""}${p.luck_bonus}${p.extra_luck ? `, ${plural(p.extra_luck, "extra draw")}` : ""}`) : null),
    yours ? null : handZone(p, ctx), // yours is in the hand's dock, at the foot of the board
    (p.hoard || []).length ? el("div", {}, el("span", { class: "stat-label" }, "hoard"),
      el("div", { class: "row cards" }, p.hoard.map((id) => faceOf(id, ctx, { small: true })))) : null);
}

function stackText(view, ctx) {
  return (view.stack || []).map((s) => {
    const who = ctx.name(s.seat);
    let what;
    if (s.kind === "action") what = `${who} plays ${cardName(s.card, ctx)}`;
    else if (s.kind === "challenge") what = `${who} attempts the challenge on ${realmAt(s.at)}`;
    else what = `${who} challenges ${ctx.name(s.opponent)} (${s.colour})`;
    return s.cancelled ? `${what} (cancelled)` : what;
  }).join("; then ");
}

function owedText(view, ctx) {
  const o = (view.owed || [])[0];
  if (!o) return null;
  const words = {
    place_realm: "place a realm from the deck", place_dragon: "place the dragon", burn: `burn ${cards(o.count)}`, raze: "raze a realm",
    move_dragon: "move a dragon one space", push: "push the losing dragon to a realm next to it", roam: `move a challenge up to ${plural(o.count, "space")}`,
    search: "choose a card from the deck", discard: `discard ${cards(o.count)} down to 7`, break: "put an opponent's hoard into its owner's junk",
  };
  const text = `${ctx.isYou(o.seat) ? "You must" : `${ctx.name(o.seat)} must`} ${words[o.kind] || o.kind}.`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function remember(view) {
  for (const r of view.realms || []) realmNames.set(key(r.at), r.name);
}

const sentence = (event, ctx) => kind.sentence(event, ctx);

const kind = {
  faceKey: slugOf,
  terms: TERMS,

  render(view, ctx) {
    remember(view);
    const owed = owedText(view, ctx);
    const active = view.active !== null && view.active !== undefined;
    const own = (view.players || []).find((p) => ctx.isYou(p.seat));
    return el("div", { class: "board stomping" },
      el("div", { class: "info-bar" },
        view.round ? stat("round", view.turn_limit ? `${view.round} of ${view.turn_limit}` : String(view.round)) : null,
        stat("phase", PHASES[view.phase] || view.phase),
        active && !["over", "setup", "setup_dragons"].includes(view.phase) ? stat("turn", ctx.who(view.active)) : null,
        view.priority !== null && view.priority !== undefined ? stat("may respond", ctx.who(view.priority)) : null,
        stat("realms", `${(view.realms || []).length} of ${view.realm_limit}`)),
      owed ? el("p", { class: "sg-owed", "data-testid": "sg-owed" }, owed) : null,
      view.stack?.length ? el("div", { class: "attack-banner" }, "Waiting to resolve (last first): ", stackText(view, ctx)) : null,
      el("section", { class: "zone" }, el("h3", {}, "The realms"), realmMap(view, ctx)),
      el("div", { class: "seats sg-seats" }, (view.players || []).map((p) => seatZone(p, view, ctx))),
      // The cards of your deck you are offered are played from like your hand, beside it.
      own ? handDock(offers(view, ctx), handZone(own, ctx)) : offers(view, ctx));
  },

  refs(a, ctx) {
    const at = (c) => key(c);
    switch (a.type) {
      case "place_realm": return [`deck:${a.card}`, at(a.at)];
      case "search": return a.at ? [`deck:${a.card}`, at(a.at)] : [`deck:${a.card}`];
      case "place_dragon": case "raze": return [at(a.at)];
      case "fly": case "push": return [at(a.to)];
      case "roam": return [a.card, at(a.to)];
      case "move_dragon": return [`dragon:${a.seat}`, at(a.to)];
      case "duel": return [`dragon:${a.opponent}`];
      case "play": return a.at ? [a.card, at(a.at)] : [a.card];
      case "junk": case "discard": case "break": return [a.card];
      case "burn": return a.card ? [a.card] : [`pile:${a.pile}`];
      case "draw": return ["pile:stash"];
      case "junk_burned": return ["pile:burned"];
      case "attempt": {
        const me = (ctx.view?.players || [])[ctx.seat];
        const realm = me?.dragon ? (ctx.view.realms || []).find((r) => r.at[0] === me.dragon[0] && r.at[1] === me.dragon[1]) : null;
        return realm?.challenge ? [realm.challenge.card] : [];
      }
      default: return []; // end_phase, land, pass, skip: the action bar
    }
  },

  label(a, ctx) {
    const n = (id) => cardName(id, ctx);
    const place = (c) => placeName(c, ctx);
    const phase = PHASES[ctx.view?.phase] || "phase";
    switch (a.type) {
      case "place_realm": return `Place ${n(a.card)} on ${place(a.at)}`;
      case "place_dragon": return `Put your dragon on ${place(a.at)}`;
      case "end_phase": return ctx.view?.phase === "reclaim" ? "End your turn" : `End the ${phase} phase`;
      case "fly": return `Fly to ${place(a.to)}`;
      case "land": return "Land here";
      case "draw": return `Draw ${n((ctx.view?.players || [])[ctx.seat]?.stash?.at(-1) || "")} from your stash`;
      case "junk": return `Junk ${n(a.card)} from your hand`;
      case "discard": return `Discard ${n(a.card)}`;
      case "play": {
        const cost = face(a.card, ctx)?.stats?.find((s) => s.label === "Cost")?.value;
        const paid = cost ? ` (pay ${cost} from your stash)` : "";
        return a.at ? `Play ${n(a.card)} on ${place(a.at)}${paid}` : `Play ${n(a.card)}${paid}`;
      }
      case "attempt": {
        const me = (ctx.view?.players || [])[ctx.seat];
        const realm = me?.dragon ? (ctx.view.realms || []).find((r) => r.at[0] === me.dragon[0] && r.at[1] === me.dragon[1]) : null;
        return realm?.challenge ? `Attempt ${realm.challenge.name} (needs luck ${realm.challenge.number})` : "Attempt the challenge under your dragon";
      }
      case "pass": return "Pass (play nothing)";
      case "burn": return a.card ? `Burn ${n(a.card)} from your hand` : `Burn ${cards(a.count)} from your ${PILE_WORDS[a.pile] || a.pile}`;
      case "duel": return `Challenge ${ctx.name(a.opponent)}'s dragon: ${a.colour}`;
      case "push": return `Push the loser to ${place(a.to)}`;
      case "junk_burned": return `Junk ${n((ctx.view?.players || [])[ctx.seat]?.burned?.at(-1) || "")} from your burn pile`;
      case "roam": return `Move ${n(a.card)} to ${place(a.to)}`;
      case "skip": return "Skip the move";
      case "search": return a.at ? `Take ${n(a.card)} from your deck to ${place(a.at)}` : `Take ${n(a.card)} from your deck`;
      case "move_dragon": return `Move ${whose(ctx, a.seat)} dragon to ${place(a.to)}`;
      case "raze": return `Raze ${place(a.at)}`;
      case "break": {
        const owner = (ctx.view?.players || []).find((p) => (p.hoard || []).includes(a.card));
        return `Break ${n(a.card)}${owner ? ` of ${ctx.name(owner.seat)}` : ""}`;
      }
      default: return null;
    }
  },

  // One sentence per event, its first letter a capital (seat names may start small).
  describe(event, ctx) {
    const text = sentence(event, ctx);
    return typeof text === "string" ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  },

  sentence(event, ctx) {
    const d = event.data || {};
    const s = d.seat;
    const n = (id) => cardName(id, ctx);
    const count = (v) => (Array.isArray(v) ? v.length : Number(v) || 0);
    switch (event.type) {
      case "GameStarted": {
        const decks = d.decks || [];
        return `The game starts: ${decks.map((k, i) => `${ctx.who(i)} ${ctx.isYou(i) ? "play" : "plays"} the ${k} deck`).join(", ")}.`;
      }
      case "LuckDrawn": return `${says(ctx, s, "draw", "draws")} luck: ${n(d.card)}, luck ${d.luck}.`;
      case "FirstPlayerChosen": return `${says(ctx, s, "go", "goes")} first.`;
      case "ChoicesOwed": {
        const list = (d.choices || []).filter(([, kind]) => kind !== "place_realm" && kind !== "place_dragon");
        if (!list.length) return null;
        return list.map(([seat, kind, k]) => {
          const what = { burn: `burn ${cards(k)}`, raze: "raze a realm", move_dragon: "move a dragon one space", push: "push the losing dragon",
            roam: `move a challenge up to ${plural(k, "space")}`, search: "choose a card from the deck", discard: `discard ${cards(k)}`,
            break: "break an opponent's hoard" }[kind] || kind;
          const line = `${ctx.isYou(seat) ? "You must" : `${ctx.name(seat)} must`} ${what}.`;
          return line.charAt(0).toUpperCase() + line.slice(1);
        }).join(" ");
      }
      case "ChoiceSkipped": return `${says(ctx, s, "have", "has")} nothing to choose and ${ctx.isYou(s) ? "skip" : "skips"} it.`;
      case "RealmPlayed": {
        realmNames.set(key(d.at), n(d.card));
        return `${says(ctx, s, "place", "places")} ${n(d.card)} on the map${d.source === "deck" ? ` from ${their(ctx, s)} deck` : ""}.`;
      }
      case "DeckShuffled": return `${says(ctx, s, "shuffle", "shuffles")} ${their(ctx, s)} deck.`;
      case "CardsDrawn": {
        const k = count(d.cards);
        const names = Array.isArray(d.cards) && ctx.isYou(s) && k <= 3 ? `: ${d.cards.map(n).join(", ")}` : "";
        return `${says(ctx, s, "draw", "draws")} ${cards(k)}${names}.`;
      }
      case "DragonPlaced": return `${says(ctx, s, "put", "puts")} ${their(ctx, s)} dragon on ${realmAt(d.at)}.`;
      case "TurnBegan": return `Turn ${d.turn}: ${ctx.isYou(s) ? "your" : `${ctx.name(s)}'s`} turn.`;
      case "PhaseBegan": return null; // the board shows the phase
      case "PhaseClosing": return `${says(ctx, s ?? event.seat, "end", "ends")} the ${PHASES[d.phase] || d.phase} phase.`;
      case "HoardBroken": return `${says(ctx, d.by, "break", "breaks")} ${whose(ctx, s)} ${n(d.card)}: it goes to ${their(ctx, s)} junk.`;
      case "CardsStashed": return `${says(ctx, s, "stash", "stashes")} ${cards(count(d.cards))}.`;
      case "CostPaid": return `${says(ctx, s, "pay", "pays")} ${cards(count(d.cards))} from ${their(ctx, s)} stash.`;
      case "ChallengeAttempted": return `${says(ctx, s, "attempt", "attempts")} the challenge on ${realmAt(d.at)}.`;
      case "ActionPlayed": return `${says(ctx, s, "play", "plays")} ${n(d.card)}.`;
      case "HoardPlayed": return `${says(ctx, s, "add", "adds")} ${n(d.card)} to ${their(ctx, s)} hoard${d.source === "deck" ? ` from ${their(ctx, s)} deck` : ""}.`;
      case "ChallengePlaced": return `${says(ctx, s, "put", "puts")} the challenge ${n(d.card)} on ${realmAt(d.at)}.`;
      case "Passed": return `${says(ctx, s, "pass", "passes")}.`;
      case "WindowClosed": case "ItemResolved": return null;
      case "ChallengeCancelled": return `${ctx.isYou(s) ? "Your" : `${ctx.name(s)}'s`} challenge is cancelled.`;
      case "ChallengeWon": return `${says(ctx, s, "win", "wins")} ${n(d.card)}: luck ${d.total} against ${d.number}.`;
      case "ChallengeLost": return `${says(ctx, s, "lose", "loses")} ${n(d.card)}: luck ${d.total} against ${d.number}.`;
      case "ChallengeFizzled": return `The challenge on ${realmAt(d.at)} is gone: nothing happens.`;
      case "DuelDeclared": return `${says(ctx, s, "challenge", "challenges")} ${whose(ctx, d.opponent)} dragon (${d.colour}).`;
      case "DuelResolved": {
        const totals = d.totals || [0, 0];
        const won = d.winner === s ? 0 : 1;
        const tie = totals[0] === totals[1] ? " (a tie goes to the dragon whose turn it is)" : "";
        return `${says(ctx, d.winner, "win", "wins")} the dragon challenge, ${totals[won]} against ${totals[1 - won]}${tie}.`;
      }
      case "DragonLanded": return `${says(ctx, s, "land", "lands")} on ${realmAt(d.at)}${d.spaces ? ` after ${plural(d.spaces, "space")}` : ""}.`;
      case "CardsBurned": {
        if (d.pile === "hand") return `${says(ctx, s, "burn", "burns")} ${n((d.cards || [])[0])} from ${their(ctx, s)} hand.`;
        return `${says(ctx, s, "burn", "burns")} ${cards(count(d.cards))} from ${their(ctx, s)} ${PILE_WORDS[d.pile] || d.pile}.`;
      }
      case "StashJunked": return `${says(ctx, s, "move", "moves")} ${cards(count(d.cards))} from ${their(ctx, s)} stash to ${their(ctx, s)} junk.`;
      case "BurnReturned": return `${says(ctx, s, "move", "moves")} ${cards(count(d.cards))} from ${their(ctx, s)} burn pile to ${their(ctx, s)} junk.`;
      case "RealmRazed": return `${says(ctx, s, "raze", "razes")} ${realmAt(d.at)}.`;
      case "DragonMoved": {
        const by = d.by ?? event.seat;
        return `${says(ctx, by, "move", "moves")} ${by === s ? `${their(ctx, s)} own` : whose(ctx, s)} dragon to ${realmAt(d.at)}.`;
      }
      case "ChallengeRoamed": return `${says(ctx, s, "move", "moves")} ${their(ctx, s)} challenge from ${realmAt(d.from)} to ${realmAt(d.to)}.`;
      case "LuckGained": {
        const bits = [];
        if (d.amount) bits.push(`luck ${d.amount > 0 ? "+" : ""}${d.amount}`);
        if (d.draws) bits.push(plural(d.draws, "extra luck draw"));
        return `${says(ctx, s, "get", "gets")} ${bits.join(" and ") || "nothing"} in challenges this turn.`;
      }
      case "DragonFlew": return `${says(ctx, s, "fly", "flies")} to ${realmAt(d.to)}${count(d.stashed) ? ` and ${ctx.isYou(s) ? "stash" : "stashes"} a card` : ""}.`;
      case "StashDrawn": return `${says(ctx, s, "take", "takes")} ${n(d.card)} from ${their(ctx, s)} stash into ${their(ctx, s)} hand.`;
      case "CardJunked": return `${says(ctx, s, "junk", "junks")} ${n(d.card)} from ${their(ctx, s)} ${d.source === "burn" ? "burn pile" : "hand"}.`;
      case "JunkReturned": return `${says(ctx, s, "put", "puts")} ${their(ctx, s)} junk under ${their(ctx, s)} deck.`;
      case "GameEnded": {
        const winners = (d.winners || []).map((w) => ctx.who(w));
        const list = winners.length > 1 ? `${winners.slice(0, -1).join(", ")} and ${winners.at(-1)}` : winners.join("");
        const verb = winners.length === 1 && !ctx.isYou(d.winners[0]) ? "wins" : "win";
        return `${list} ${verb}: ${String(d.reason || "the game is over").replace(/^turn limit: /, "")}.`;
      }
      default: return undefined;
    }
  },

  ending(view, outcome, ctx) {
    const winners = outcome?.winners || [];
    const reason = String(outcome?.reason || "");
    const names = winners.map((w) => ctx.who(w)).join(" and ");
    if (reason.startsWith("turn limit")) return `${names} ${winners.length === 1 && !ctx.isYou(winners[0]) ? "has" : "have"} the fewest cards left when the rounds ran out.`;
    if (winners.length) return `${names} ${winners.length === 1 && !ctx.isYou(winners[0]) ? "burns" : "burn"} through every card: nothing left in deck, stash or junk at the end of the turn.`;
    return null;
  },
};

export default kind;
