// dragon-fortress: Estate Lines of estate, gold and tower cards; dragons march through them.
// Every card is drawn from its face (GET /v1/kinds/dragon-fortress/cards, keyed by the
// card id without its copy number), so its numbers and ability are on the board.

import { el, section, stat, titleCase } from "../dom.js";
import { faceCard, namedTitle } from "../cards.js";
import { handDock } from "./common.js";

// The words of the table a newcomer meets, in our own words, as the kind's How to play
// and RULINGS.md have them; terms.js marks them wherever they are read.
const TERMS = [
  { term: "Estate Line", forms: ["estate lines?"], text: "Your row of cards, from your Estate Flag on the left to your Front Line on the right. What lies in it makes your powers and points, and dragons walk through it toward the flag." },
  { term: "Estate Flag", forms: ["estate flags?", "flags?"], text: "The first card of your Estate Line, at its left end. Dragons walk toward it; one that has reached it flees on your next turn." },
  { term: "Front Line", forms: ["front lines?"], text: "The open end of your Estate Line: new cards come in there (never past a Gate Tower), and so do the dragons that arrive." },
  { term: "Estate Move", forms: ["estate moves?"], text: "The first step of your turn: move one Estate or Gold card of your line one place toward the flag, or leave the line as it is. Towers never move, nor a card right behind a dragon." },
  { term: "Draw, buy or advance", text: "The second step of your turn, exactly one of three: draw from the common supply or the gold pile, buy an upgrade, or advance to your next phase." },
  { term: "Place a card", text: "The last step after a draw: put one card from your hand at your Front Line, so your hand stays at five. Gold drawn this turn has to wait." },
  { term: "Estate Power", forms: ["estate powers?", "estate"], text: "The moons and suns of the estate cards in your line, added up (a moon counts 1, a sun 2 and a full sun 3). It lets you advance and decides the 10-point Estate bonus." },
  { term: "Fortress Power", forms: ["fortress powers?", "fortress"], text: "The shots of the towers in your line, added up. A phase asks for some, and the most of it wins the 5-point Fortress bonus." },
  { term: "Estate bonus", forms: ["estate bonus(?:es)?"], text: "10 points at the end for the most Estate Power. Two tied leaders get 5 each; a tie of three or more gets nothing." },
  { term: "Fortress bonus", forms: ["fortress bonus(?:es)?"], text: "5 points at the end for the most Fortress Power; a tie gets nothing." },
  { term: "VP", forms: ["VP", "victory points?"], text: "Victory points, printed on cards in your line and on the dragons you defeat. With the two bonuses they make your final score." },
  { term: "Gold", forms: ["gold"], text: "Drawn from the gold pile and placed in your line like other cards; upgrades are paid with it. A dragon that passes over gold burns it and flees." },
  { term: "Phase", forms: ["phases?", "fallow", "meadow", "pasture", "advance[sd]?"], text: "Fallow, Meadow and Pasture, taken in that order once your line has the Estate and Fortress Power they need. Each goes to your Front Line and opens more upgrades." },
  { term: "Needs estate", forms: ["needs (?:estate|fortress)"], text: "What a phase card asks of your line before you may advance to it: at least this much Estate Power (Needs fortress: Fortress Power)." },
  { term: "Upgrade", forms: ["upgrades?"], text: "Barn, Mill, Granary, Gate Tower, War Tower, Dragon Tower: bought for their gold, never drawn, once your line holds the phase they need; each type once per phase, never two turns running." },
  { term: "Cost", forms: ["cost"], text: "The gold an upgrade costs, paid from the gold cards in your line when you buy it." },
  { term: "Max", forms: ["max"], text: "The most copies of that upgrade one player may ever own." },
  { term: "Tower", forms: ["towers?"], text: "Towers never move. Their shots add up to your Fortress Power and hurt any dragon that stands in front of them, nearer your flag." },
  { term: "Shots", forms: ["shots?"], text: "A tower's damage to a dragon between it and your flag. The shots of your towers also add up to your Fortress Power." },
  { term: "Gate Tower", forms: ["gate towers?"], text: "An upgrade that always keeps the front of your line: new cards go in behind it." },
  { term: "Dragon Tower", forms: ["dragon towers?"], text: "An upgrade you may give up when a dragon passes over it: that dragon is defeated at once, whatever its strength, and you keep it." },
  { term: "Sacrifice", forms: ["sacrific(?:e|es|ed)", "spare[sd]?", "dragon tower decision"], text: "When a dragon passes over your Dragon Tower, you choose: sacrifice the tower to defeat the dragon at once, or spare it and let the dragon go on." },
  { term: "Strength", forms: ["strength"], text: "The damage a dragon can take: once the shots of the towers behind it reach this, it is defeated and you keep it for its VP." },
  { term: "Razes", forms: ["raz(?:e|es|ed|ing)", "burns?", "burnt"], text: "What a dragon burns as it passes over a card: a sun line burns moons too, \"all estate\" every estate card, and some burn gold or towers. A burnt card leaves the game." },
  { term: "Speed", forms: ["speed"], text: "How many places a dragon steps toward the flag on each turn of the line's owner." },
  { term: "Call depth", forms: ["call depth"], text: "How many cards down the common supply the Dragon Call is put back when this dragon is the next one to come." },
  { term: "Dragon Call", forms: ["dragon calls?"], text: "A card hidden in the common supply. Drawing it ends your turn: the next dragon lands at your Front Line and the Call goes back in, until no dragon is left." },
  { term: "Common supply", forms: ["common supply"], text: "The face-down pile players draw their common cards from: estate cards (Crop Fields, Farmsteads) and towers (Watch and Guard Towers). The Dragon Call hides in it." },
  { term: "Flee", forms: ["fle(?:e|es|d)", "fleeing"], text: "A dragon leaves your line when it has reached your flag, burns gold, or a second one arrives. It goes on, unhurt, to the Front Line of the nearest earlier player with no dragon, or leaves the game if there is none." },
  { term: "Shadow Terror", text: "The last and strongest dragon. Defeating it ends the game at once." },
  { term: "Moon and sun", forms: ["moons?", "(?:full )?suns?"], text: "Estate symbols: a moon is worth 1 Estate Power, a sun 2, a full sun 3." },
];

const STEPS = {
  move: "Estate Move",
  sacrifice: "Dragon Tower decision",
  acquire: "Draw, buy or advance",
  place: "Place a card",
  over: "Game over",
};
const UPGRADE_KEYS = ["barn", "mill", "granary", "gate-tower", "war-tower", "dragon-tower"];
const PHASE_KEYS = ["fallow", "meadow", "pasture"];

export function faceKey(id) {
  return typeof id === "string" ? id.replace(/-\d+$/, "") : id;
}

const faceOf = (ctx, id) => (ctx && ctx.face ? ctx.face(id) : null);
const nameOf = (ctx, id) => (ctx && ctx.cardName ? ctx.cardName(id) : namedTitle(id));
const isYou = (ctx, i) => (ctx.isYou ? ctx.isYou(i) : i === ctx.seat);
const who = (ctx, i) => (ctx.who ? ctx.who(i) : (isYou(ctx, i) ? "You" : ctx.name(i)));
// "You draw" / "Greedy bot 2 draws"
const says = (ctx, i, you, they) => `${who(ctx, i)} ${isYou(ctx, i) ? you : they}`;
// "your" / "Greedy bot 2's"
const whose = (ctx, i) => (isYou(ctx, i) ? "your" : `${ctx.name(i)}'s`);
const theirs = (ctx, i) => (isYou(ctx, i) ? "your" : "their");
const statOf = (face, label) => (face?.stats || []).find((s) => s.label === label)?.value;

// A face-down card (a hidden hand card, the common supply), named for screen readers.
function cardBack(label, { small = false } = {}) {
  return el("div", { class: ["card", "back", small && "small"], role: "img", title: label, "aria-label": label });
}

// A card from its face. One the board may make a button (it carries a data-ref) has its
// "i" button beside it, over its corner, not inside it: no control nested in another.
function card(ctx, id, opts = {}) {
  const node = faceCard(id, faceOf(ctx, id), opts);
  if (opts.ref === null) return node;
  const info = node.querySelector(".face-info");
  if (!info) return node;
  info.remove();
  return el("div", { class: ["df-card", opts.small && "small"] }, node, info);
}

function viewerSeat(ctx, view) {
  if (ctx.seat !== null && ctx.seat !== undefined) return ctx.seat;
  return view?.you ?? null;
}

// One pile of the common table: a card (its face, or a back), a visible label and count.
function pileBox(ref, label, count, top, { note = null, playable = true } = {}) {
  return el("div", { class: ["df-pile", !count && "df-empty"], "data-ref": playable ? ref : null, "aria-label": `${label}: ${count} left` },
    top,
    el("span", { class: "df-pile-label" }, label, " ", el("b", {}, String(count))),
    note ? el("span", { class: "df-pile-note" }, note) : null);
}

function table(view, ctx) {
  const supply = view.supply || {};
  const depth = supply.call_depth;
  const callNote = depth === null || depth === undefined ? "no Dragon Call left"
    : depth === 0 ? "Dragon Call on top" : `Dragon Call: ${depth} card${depth === 1 ? "" : "s"} down`;
  const piles = view.piles || {};
  const pileCard = (key) => card(ctx, key, { small: true, ref: null });
  const dragons = view.dragons || [];
  return el("div", { class: "df-table" },
    section("Supplies",
      el("div", { class: "df-piles" },
        pileBox("pile:common", "Common supply", supply.count ?? 0, cardBack("common supply", { small: true }), { note: callNote }),
        pileBox("pile:gold", "Gold", view.gold_supply ?? 0, card(ctx, "gold", { small: true, ref: null })))),
    section("Phases",
      el("div", { class: "df-piles" }, PHASE_KEYS.filter((k) => k in piles).map((k) => pileBox(`pile:${k}`, titleCase(k), piles[k], pileCard(k))))),
    section("Upgrades to buy",
      el("div", { class: "df-piles" }, UPGRADE_KEYS.filter((k) => k in piles).map((k) => pileBox(`pile:${k}`, titleCase(k), piles[k], pileCard(k))))),
    section(`Dragons to come (${dragons.length})`,
      dragons.length ? el("div", { class: "df-row" }, dragons.map((id, i) => card(ctx, id, { small: true, ref: null, cls: i === 0 ? "df-next" : null,
        extra: i === 0 ? el("span", { class: "df-badge" }, "next") : null })))
        : el("p", { class: "empty-note" }, "Every dragon has been called.")));
}

function handBox(p, ctx, mine) {
  const handCards = p.hand
    ? p.hand.map((id) => card(ctx, id, { small: !mine, cls: p.fresh_gold === id ? "df-fresh" : null,
      extra: p.fresh_gold === id ? el("span", { class: "df-badge" }, "drawn this turn") : null }))
    : Array.from({ length: p.hand_count || 0 }, (_, i) => (p.hand_gold?.[i] ? card(ctx, p.hand_gold[i], { small: true, ref: null }) : cardBack("hidden card", { small: true })));
  return el("div", { class: "df-hand-box" },
    el("span", { class: "stat-label" }, mine ? `Your hand (${p.hand_count})` : `Hand (${p.hand_count})`),
    el("div", { class: ["df-hand", mine && "df-hand-mine"] }, handCards.length ? handCards : el("span", { class: "empty-note" }, "empty")));
}

function estate(p, view, ctx) {
  const you = viewerSeat(ctx, view);
  const mine = p.seat === you;
  const pending = view.pending;
  const line = (p.line || []).map((id, i) => {
    const dragonHere = p.dragon && p.dragon.position === i;
    const extra = [el("span", { class: "df-pos", title: `place ${i + 1} from the flag` }, String(i + 1))];
    if (dragonHere) extra.push(el("span", { class: "df-damage" }, `damage ${p.dragon.damage}/${p.dragon.strength}`));
    const cls = [dragonHere && "dragon-here", pending && pending.tower === id && "df-pending"].filter(Boolean).join(" ") || null;
    return card(ctx, id, { small: true, extra, cls });
  });
  const front = mine && view.step !== "over"
    ? el("div", { class: "df-front", "data-ref": `front:${p.seat}`, "aria-label": "your Front Line: a new card enters here" }, "Front Line")
    : el("div", { class: "df-front df-front-other", "aria-hidden": "true" }, "Front Line");
  const next = PHASE_KEYS[PHASE_KEYS.indexOf(p.phase) + 1] ?? (p.phase ? null : "fallow");
  const nextFace = next ? faceOf(ctx, next) : null;
  const bought = Object.entries(p.purchases || {}).filter(([, n]) => n);
  return el("section", { class: ["seat-zone", "df-seat", mine && "mine", view.turn === p.seat && view.step !== "over" && "acting"], "aria-label": `${ctx.name(p.seat)}'s estate`, "data-seat": p.seat },
    el("h4", {}, ctx.name(p.seat), ctx.isYou(p.seat) ? " (you)" : "", view.turn === p.seat && view.step !== "over" ? el("span", { class: "df-turn" }, " · to play") : null),
    el("div", { class: "row df-stats" },
      stat("VP", p.victory_points), stat("Estate", p.estate_power), stat("Fortress", p.fortress_power), stat("Gold", p.gold_power),
      stat("Phase", p.phase ? titleCase(p.phase) : "none"),
      nextFace && mine ? el("span", { class: "df-next-phase" }, `${nextFace.name} needs ${statOf(nextFace, "Needs estate")} Estate, ${statOf(nextFace, "Needs fortress")} Fortress`) : null),
    p.dragon ? el("p", { class: "attack-banner" }, `${nameOf(ctx, p.dragon.card)} is in this line at place ${p.dragon.position + 1}: damage ${p.dragon.damage} of ${p.dragon.strength}.`) : null,
    el("div", { class: "df-line-box" },
      el("span", { class: "stat-label" }, "Estate Line (flag → Front Line)"),
      el("div", { class: "df-line" }, card(ctx, p.flag, { small: true, ref: null, cls: "df-flag" }), line, front)),
    ctx.isYou(p.seat) ? null : handBox(p, ctx, mine), // yours is in the hand's dock, at the foot of the board
    p.trophies?.length ? el("div", { class: "df-trophies" }, el("span", { class: "stat-label" }, "Dragons defeated"),
      el("div", { class: "df-row" }, p.trophies.map((id) => card(ctx, id, { small: true, ref: null })))) : null,
    bought.length ? el("div", { class: "row df-bought" }, el("span", { class: "stat-label" }, "Bought"), bought.map(([k, n]) => stat(titleCase(k), n))) : null);
}

function scores(view, ctx) {
  if (!view.scores) return null;
  return section("Final scores", el("table", { class: "scores" },
    el("tr", {}, el("th", {}, "Player"), el("th", {}, "VP"), el("th", {}, "Estate bonus"), el("th", {}, "Fortress bonus"), el("th", {}, "Total")),
    view.scores.map((s, i) => el("tr", {}, el("td", {}, ctx.name(i)), el("td", {}, s.victory_points), el("td", {}, s.estate_bonus), el("td", {}, s.fortress_bonus), el("td", {}, el("b", {}, s.total))))));
}

function linePlace(ctx, id) {
  const v = ctx.view;
  const seat = viewerSeat(ctx, v);
  const line = v?.players?.[seat]?.line || [];
  const at = line.indexOf(id);
  return at >= 0 ? at + 1 : null;
}

function andList(items) {
  if (items.length < 2) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

export default {
  faceKey,
  terms: TERMS,

  render(view, ctx) {
    const you = viewerSeat(ctx, view);
    const players = view.players || [];
    const mine = players.find((p) => p.seat === you) || null;
    const others = players.filter((p) => p !== mine);
    return el("div", { class: "board dragon-fortress" },
      el("div", { class: "info-bar" },
        stat("Step", STEPS[view.step] || view.step),
        view.turn !== null && view.turn !== undefined && view.step !== "over" ? stat("Turn", ctx.name(view.turn)) : null,
        stat("Turns played", view.turns_played)),
      view.pending ? el("p", { class: "note df-pending-note" },
        `${nameOf(ctx, view.pending.dragon)} passes over ${whose(ctx, view.turn)} Dragon Tower: sacrifice it to defeat the dragon, or spare it.`) : null,
      scores(view, ctx),
      mine ? el("div", { class: "df-seats" }, estate(mine, view, ctx)) : null,
      table(view, ctx),
      el("div", { class: "df-seats" }, others.map((p) => estate(p, view, ctx))),
      mine && ctx.isYou(mine.seat) ? handDock(handBox(mine, ctx, true)) : null);
  },

  refs(a, ctx) {
    const seat = viewerSeat(ctx, ctx.view);
    switch (a.type) {
      case "move": return [a.card];
      case "place": return [a.card, `front:${seat}`];
      case "draw": return [`pile:${a.pile}`];
      case "purchase": return [`pile:${a.card}`];
      case "advance": return [`pile:${a.phase}`];
      case "sacrifice": return ctx.view?.pending?.tower ? [ctx.view.pending.tower] : [];
      default: return []; // stay, spare: the action bar
    }
  },

  label(a, ctx) {
    const pending = ctx.view?.pending;
    switch (a.type) {
      case "stay": return "Make no Estate Move";
      case "move": {
        const at = linePlace(ctx, a.card);
        return at ? `Move ${nameOf(ctx, a.card)} from place ${at} to place ${at - 1}` : `Move ${nameOf(ctx, a.card)} one place toward the flag`;
      }
      case "sacrifice": return `Sacrifice the Dragon Tower to defeat ${pending ? nameOf(ctx, pending.dragon) : "the dragon"}`;
      case "spare": return `Spare the Dragon Tower${pending ? ` (${nameOf(ctx, pending.dragon)} marches on)` : ""}`;
      case "draw": return a.pile === "gold" ? "Draw a Gold" : "Draw from the common supply";
      case "purchase": {
        const face = faceOf(ctx, a.card);
        const cost = statOf(face, "Cost");
        return `Buy a ${face?.name || titleCase(a.card)}${cost !== undefined ? ` for ${cost} gold` : ""}`;
      }
      case "advance": return `Advance to ${faceOf(ctx, a.phase)?.name || titleCase(a.phase)}`;
      case "place": return `Place ${nameOf(ctx, a.card)} at your Front Line`;
      default: return null;
    }
  },

  describe(event, ctx) {
    const text = sentence(event, ctx);
    return typeof text === "string" ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  },

  // How the rules ended it (outcome.reason names a seat from 0: "Seat 0 defeated ..."),
  // and who took the two bonuses.
  ending(view, outcome, ctx) {
    const m = /^Seat (\d+) (.*)$/.exec(outcome?.reason || "");
    if (!m) return null;
    const seat = Number(m[1]);
    const text = [/Shadow Terror/.test(m[2])
      ? `${who(ctx, seat)} defeated the Shadow Terror, which ends the game at once.`
      : `${who(ctx, seat)} placed the last card from ${theirs(ctx, seat)} hand, which ends the game.`];
    const scores = view?.scores || [];
    if (scores.length) {
      const estate = scores.map((s, i) => (s.estate_bonus ? `${ctx.name(i)} (${s.estate_bonus})` : null)).filter(Boolean);
      const fortress = scores.map((s, i) => (s.fortress_bonus ? `${ctx.name(i)} (${s.fortress_bonus})` : null)).filter(Boolean);
      text.push(estate.length ? `Estate bonus to ${andList(estate)}.` : "No Estate bonus (a tie of three or more).");
      text.push(fortress.length ? `Fortress bonus to ${andList(fortress)}.` : "No Fortress bonus (a tie).");
    }
    const out = text.join(" ");
    return out.charAt(0).toUpperCase() + out.slice(1);
  },
};

// One sentence per game event, from the viewer's seat (kinds/README.md); null leaves a
// bookkeeping event out, undefined one this kind does not know.
function sentence(event, ctx) {
  const d = event.data || {};
  const s = event.seat;
  const n = (id) => nameOf(ctx, id);
  switch (event.type) {
    case "GameSetUp": {
      const hands = d.hands || [];
      const dealt = hands.map((h) => (Array.isArray(h) ? h.length : h));
      const depth = Array.isArray(d.supply) ? d.supply.indexOf("dragon-call-01") : d.supply?.call_depth;
      return `Each of the ${d.players ?? hands.length} players is dealt ${dealt[0] ?? 5} cards; the Dragon Call lies ${depth} cards down in the common supply.`;
    }
    case "EstateCardMoved": return `${says(ctx, s, "move", "moves")} ${n(d.card)} one place toward ${theirs(ctx, s)} flag.`;
    case "EstateMoveForgone": return `${says(ctx, s, "make", "makes")} no Estate Move.`;
    case "DragonAdvanced": return `${n(d.dragon)} advances in ${whose(ctx, s)} Estate Line, passing over ${n(d.passed)}.`;
    case "CardRazed": return `${n(d.dragon)} burns ${whose(ctx, s)} ${n(d.card)}.`;
    case "SacrificeOffered": return `${n(d.dragon)} passes over ${whose(ctx, s)} Dragon Tower, which may be sacrificed.`;
    case "TowerSacrificed": return `${says(ctx, s, "sacrifice", "sacrifices")} ${theirs(ctx, s)} Dragon Tower to defeat ${n(d.dragon)}.`;
    case "SacrificeDeclined": return `${says(ctx, s, "spare", "spares")} ${theirs(ctx, s)} Dragon Tower.`;
    case "DragonDefeated": {
      const how = d.damage === null || d.damage === undefined ? "" : ` with ${d.damage} damage`;
      const vp = statOf(faceOf(ctx, d.dragon), "VP");
      return `${says(ctx, s, "defeat", "defeats")} ${n(d.dragon)}${how}${vp !== undefined ? ` and ${isYou(ctx, s) ? "keep" : "keeps"} it for ${vp} VP` : ""}.`;
    }
    case "DragonFled":
      if (d.to === null || d.to === undefined) return `${n(d.dragon)} flees ${whose(ctx, s)} Estate and leaves the game.`;
      return `${n(d.dragon)} flees ${whose(ctx, s)} Estate to ${whose(ctx, d.to)} Front Line.`;
    case "AcquireForgone": return `${says(ctx, s, "cannot", "cannot")} draw, buy or advance.`;
    case "CommonCardDrawn": return d.card ? `${says(ctx, s, "draw", "draws")} ${n(d.card)}.` : `${says(ctx, s, "draw", "draws")} a card from the common supply.`;
    case "GoldDrawn": return `${says(ctx, s, "draw", "draws")} a Gold.`;
    case "DragonCalled": {
      const back = d.call_returned_at === null || d.call_returned_at === undefined
        ? " No dragon is left, so the Dragon Call leaves the game."
        : d.call_returned_at === 0 ? " The Dragon Call goes back on top of the common supply."
          : ` The Dragon Call goes back ${d.call_returned_at} card${d.call_returned_at === 1 ? "" : "s"} down.`;
      return `${says(ctx, s, "draw", "draws")} the Dragon Call: ${n(d.dragon)} attacks ${whose(ctx, s)} Front Line.${back}`;
    }
    case "StructurePurchased": {
      const paid = (d.paid || []).length;
      return `${says(ctx, s, "buy", "buys")} a ${n(d.card)}${paid ? `, paying ${paid} gold` : ""}.`;
    }
    case "PhaseAdvanced": return `${says(ctx, s, "advance", "advances")} to ${n(d.card)}.`;
    case "CardPlaced": return `${says(ctx, s, "place", "places")} ${n(d.card)} at ${theirs(ctx, s)} Front Line.`;
    case "TurnPassed": return null; // the table shows whose turn it is
    case "GameEnded": {
      const why = d.reason === "terror"
        ? `${says(ctx, s, "defeat", "defeats")} the Shadow Terror: the game ends.`
        : `${says(ctx, s, "place", "places")} the last card from ${theirs(ctx, s)} hand: the game ends.`;
      const gone = (d.dispersed || []).map(n);
      return gone.length ? `${why} ${andList(gone)} ${gone.length === 1 ? "flees" : "flee"} unscored.` : why;
    }
    default: return undefined;
  }
}
