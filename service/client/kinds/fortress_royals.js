// fortress-royals: secret ten-card hands built at either end, attacks on a neighbour.
//
// Every hand is drawn on one line (its cards overlap when space is short), with its
// left and right ends marked: a drawn card is placed by clicking an end of your hand,
// an attack is made by picking its card(s) in your hand, then an end of the attacked
// hand. Each face-up card shows its strength (and a royal the points it scores) from
// the kind's card faces (GET /v1/kinds/fortress-royals/cards).

import { el, stat } from "../dom.js";
import { cardBack, pile, shortName, standardCard } from "../cards.js";
import { handDock } from "./common.js";

const PHASES = {
  first_draw: "drawing for first player",
  choose_first: "choosing who goes first",
  arrange: "the two dealt cards",
  fortify: "building hands",
  rearrange: "one last move",
  attack: "attacking",
  over: "game over",
};

// The words of the table a newcomer meets, in our own words, as the kind's How to play
// and RULINGS.md have them; terms.js marks them wherever they are read.
const TERMS = [
  { term: "Royal", forms: ["royals?"], text: "A Jack, Queen or King. Royals have strength 0 and score at the end of every round: hide yours deep in your hand and capture the ones of the player you attack." },
  { term: "Strength", text: "The number that decides attacks and blocks: 2 to 10 are worth their value, the Ace 1 and every royal 0." },
  { term: "Kept", text: "The points a royal scores when it is still in your hand as the round ends: a Queen 2, a Jack or a King 1." },
  { term: "Captured", forms: ["captur(?:e|es|ed|ing)"], text: "A royal your attack breaks is yours to score (a King 2, a Jack or Queen 1); a royal someone attacks you with becomes yours too, for 1 point." },
  { term: "Left or right end", forms: ["(?:left|right) end", "an end", "either end"], text: "Cards join a hand only at its left or right end, never in between, and an attack strikes one end: the outer card, with any cards of the same rank right behind it." },
  { term: "Equal ranks", forms: ["equal ranks?", "runs? of equal ranks?"], text: "Cards of the same rank side by side (every royal counts as rank 0). They defend together, and you may attack with some or all of them." },
  { term: "Break", forms: ["break(?:s)?", "broken"], text: "A winning attack breaks defending cards: they go face up to the discard pile, except royals, which the attacker captures. The attacking cards are discarded too, but an attacking royal goes to the defender." },
  { term: "Blocked", forms: ["block(?:s|ed)?"], text: "An attack that is too weak: the defender turns face up the fewest outer cards that were enough to stop it, and they stay visible." },
  { term: "Pass", forms: ["pass(?:es)?"], text: "Doing nothing on your turn. When every player passes, one after another, the round ends." },
  { term: "\"Done\"", forms: ["calls? \"done\"", "\"done\""], text: "When at most one card of your hand is not a royal, you may call it on your turn: the round ends at once." },
  { term: "Ace", forms: ["aces?", "A[\u2660\u2665\u2666\u2663]"], text: "Strength 1. On your turn you may discard an Ace instead of attacking, then draw a card and put it at an end of your hand." },
  { term: "Even Round", forms: ["even rounds?"], text: "With two players, every second round is played on the cards the round before left in the deck, with no new shuffle." },
  { term: "Round", forms: ["rounds?"], text: "Hands are built, then players attack in turn until all pass, someone calls \"done\" or a hand runs out of cards; then every royal scores." },
  { term: "Direction", forms: ["direction", "clockwise", "counter-clockwise", "play goes"], text: "Which way play goes round the table. You attack the next player that way, and the direction turns around every round." },
  { term: "First player", forms: ["first player", "goes? first", "go first"], text: "Who starts the round. In round 1 the player who drew the highest card picks; later, the player who scored least in the round before." },
  { term: "Dealt cards", forms: ["(?:two )?dealt cards"], text: "The two cards each player starts a round with. They have no order yet: keep them as they lie or swap them, before the first draw." },
  { term: "Building hands", forms: ["building hands", "build(?:ing)? (?:your|their) hand"], text: "In turn each player draws a card and puts it at the left or right end of their hand, until every hand holds ten cards." },
  { term: "One last move", forms: ["one last move", "move one card"], text: "Once every hand holds ten cards, each player may move one card of their hand to any place, once, unseen by the others." },
  { term: "Goal", forms: ["goal", "first to \\d+ points"], text: "The game goes on until a player has 21 points (two players), 17 (three), 14 (four) or 12 (five), or for a set number of rounds. The highest total wins; tied leaders share the win." },
];

const endRef = (seat, side) => `end:${seat}:${side}`;
const seatRef = (seat) => `seat:${seat}`;

// Words for a seat in the middle of a sentence, its possessive, and a verb agreeing with it.
const whoIn = (i, ctx) => (ctx.isYou(i) ? "you" : ctx.name(i));
const whose = (i, ctx) => (ctx.isYou(i) ? "your" : `${ctx.name(i)}'s`);
const verb = (i, ctx, base, third = `${base}s`) => (ctx.isYou(i) ? base : third);
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function listWords(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

const cardsWords = (ids) => listWords((ids || []).map(shortName));
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function myCards(view) {
  return (view.hands || []).find((h) => h.seat === view.seat)?.cards || [];
}

// "seat 0 ran out of cards" (the rules' own words, seats from 0) in the viewer's words.
function reasonWords(reason, ctx) {
  if (!reason) return "";
  const out = /^seat (\d+) ran out of cards$/.exec(reason);
  if (out) return `${whoIn(Number(out[1]), ctx)} ran out of cards`;
  const done = /^seat (\d+) called "?done"?$/.exec(reason);
  if (done) return `${whoIn(Number(done[1]), ctx)} called "done"`;
  return reason;
}

function winWords(winners, reason, ctx, points = null) {
  const names = listWords((winners || []).map((i) => whoIn(i, ctx)));
  const shared = (winners || []).length > 1;
  const win = shared ? "share the win" : verb(winners[0], ctx, "win");
  let why = "";
  if (/^reached /.test(reason || "")) why = `, having ${reason}`;
  else if (/^highest /.test(reason || "")) why = ` with the ${reason}${points !== null && points !== undefined ? `, ${plural(points, "point")}` : ""}`;
  else if (reason) why = ` (${reason})`;
  return `${cap(names)} ${win}${why}.`;
}

// A face-up card: the standard card, with its strength (and a royal's points) from its face.
function faceUp(id, ctx, { ref = id, small = false, points = "kept", where = "" } = {}) {
  const face = ctx.face(id);
  const stats = Object.fromEntries((face?.stats || []).map((s) => [s.label, s.value]));
  const chips = [];
  if (face && "strength" in stats && !(small && points in stats)) {
    chips.push(el("span", { class: "fr-chip fr-strength", "data-label": "strength", "data-value": stats.strength, title: `strength ${stats.strength}` }, String(stats.strength)));
  }
  if (face && points in stats) {
    chips.push(el("span", { class: "fr-chip fr-points", "data-label": points, "data-value": stats[points], title: `${stats[points]} ${stats[points] === 1 ? "point" : "points"} ${points}` }, `★${stats[points]}`));
  }
  const node = standardCard(id, { ref, small, extra: chips.length ? el("span", { class: "fr-chips", "aria-hidden": "true" }, chips) : null });
  node.dataset.card = id;
  const summary = face
    ? [face.name, (face.stats || []).map((s) => `${s.label} ${s.value}`).join(", "), face.text].filter(Boolean).join(". ")
    : shortName(id);
  node.title = where ? `${summary} (${where})` : summary;
  node.setAttribute("aria-label", where ? `${face?.name || shortName(id)}, ${where}` : (face?.name || shortName(id)));
  node.setAttribute("role", "img");
  return node;
}

function hiddenCard(label) {
  const node = cardBack(label);
  node.setAttribute("role", "img");
  return node;
}

function endSlot(seat, side, view, ctx, usable) {
  const arrow = side === "left" ? "◀" : "▶";
  return el("span", {
    class: ["fr-end", `fr-end-${side}`, usable && "fr-end-live"], "data-ref": endRef(seat, side),
    "aria-label": `${side} end of ${whose(seat, ctx)} hand`, title: `${side} end of ${whose(seat, ctx)} hand`,
  }, el("span", { class: "fr-arrow", "aria-hidden": "true" }, arrow), el("span", { class: "fr-end-word" }, side), el("span", { class: "fr-end-word" }, "end"));
}

function handLine(h, view, ctx) {
  const revealed = new Set(h.revealed || []);
  const cards = h.cards || [];
  const slots = cards.map((id, i) => {
    const where = `card ${i + 1} of ${cards.length} from the left`;
    const node = id === null ? hiddenCard(`hidden card, ${where}`) : faceUp(id, ctx, { where });
    if (revealed.has(i)) node.classList.add("revealed");
    node.dataset.pos = i;
    return el("span", { class: "fr-slot" }, node);
  });
  const live = (side) => (ctx.actions || []).some((a) => (a.type === "place" && h.seat === view.seat && a.end === side)
    || (a.type === "attack" && h.seat === view.attack_target && a.side === side));
  return el("div", { class: "fr-line", "data-seat": h.seat },
    endSlot(h.seat, "left", view, ctx, live("left")),
    el("div", { class: "fr-cards" }, slots.length ? slots : el("span", { class: "empty-note" }, "no cards")),
    endSlot(h.seat, "right", view, ctx, live("right")));
}

function seatZone(h, view, ctx) {
  const mine = h.seat === view.seat && view.seat !== null && view.seat !== undefined;
  const acting = (view.to_act || []).includes(h.seat);
  const target = view.attack_target === h.seat;
  const captured = view.captured?.[h.seat] || [];
  const notes = [];
  if (acting) notes.push(el("span", { class: "fr-tag fr-tag-act" }, "to act"));
  if (target) notes.push(el("span", { class: "fr-tag fr-tag-target" }, "attacked this turn"));
  if (view.first_player === h.seat && view.phase !== "choose_first") notes.push(el("span", { class: "fr-tag" }, "first player"));
  return el("div", { class: ["seat-zone", "fr-seat", mine && "mine", acting && "acting", target && "fr-target"], "data-seat": h.seat },
    el("h4", { class: "fr-seat-head" },
      el("span", { class: "fr-seat-name", "data-ref": view.phase === "choose_first" ? seatRef(h.seat) : null }, ctx.name(h.seat), ctx.isYou(h.seat) ? " (you)" : ""),
      " ", stat("score", view.scores?.[h.seat] ?? 0), " ", stat("cards", h.count ?? (h.cards || []).length), " ", notes),
    handLine(h, view, ctx),
    captured.length
      ? el("div", { class: "fr-captured" }, el("span", { class: "stat-label" }, "captured royals"),
        el("div", { class: "row cards" }, captured.map((id) => faceUp(id, ctx, { ref: null, small: true, points: "captured", where: `captured by ${ctx.name(h.seat)}` }))))
      : null);
}

// What the viewer is asked to do now, in words.
function prompt(view, ctx) {
  const me = view.seat;
  const acting = me !== null && me !== undefined && (view.to_act || []).includes(me);
  const drawn = view.drawn;
  if (view.phase === "over") return `The game is over. ${winWords(view.winners, view.result, ctx, view.scores?.[view.winners?.[0]])}`;
  if (!acting) {
    if (view.phase === "choose_first" && view.chooser !== null && view.chooser !== undefined) return `${ctx.name(view.chooser)} chooses who goes first.`;
    if (drawn) return `${ctx.name(drawn.seat)} places a drawn card at an end of their hand.`;
    if (view.turn !== null && view.turn !== undefined && view.phase === "attack") return `${ctx.name(view.turn)} attacks ${whoIn(view.attack_target, ctx)} this turn.`;
    return (view.to_act || []).length ? `Waiting for ${listWords(view.to_act.map((i) => ctx.name(i)))}.` : "";
  }
  switch (view.phase) {
    case "choose_first": return "Choose who goes first: click a player's name.";
    case "arrange": return "Keep your two dealt cards in this order, or swap them.";
    case "fortify":
    case "attack":
      if (drawn) return `You drew ${drawn.card ? shortName(drawn.card) : "a card"}: click the left or right end of your hand to place it.`;
      return `Your attack on ${ctx.name(view.attack_target)}: click a card of your hand (or a run of equal ranks, one after another), then an end of their hand. Or pass.`;
    case "rearrange": return "You may move one card: click it, then the card whose place it takes. Or keep your hand.";
    default: return "";
  }
}

function firstDraws(view, ctx) {
  if (!view.first_draws?.length) return null;
  return el("section", { class: "zone fr-first-draws" }, el("h3", {}, "Draws for first player"),
    view.first_draws.map((draw, k) => el("div", { class: "row fr-draw" }, el("span", { class: "stat-label" }, `draw ${k + 1}`),
      draw.map((id, seat) => (id === null ? null : el("span", { class: "fr-drawn-by" }, faceUp(id, ctx, { small: true, ref: null }), " ", ctx.name(seat)))))));
}

function pointsTable(view, ctx) {
  if (!view.round_points?.length) return null;
  const seats = (view.hands || []).map((h) => h.seat);
  return el("section", { class: "zone fr-points-table" }, el("h3", {}, "Points by round"),
    el("div", { class: "fr-scroll" }, el("table", { class: "scores" },
      el("tr", {}, el("th", {}, "round"), seats.map((s) => el("th", {}, ctx.name(s)))),
      view.round_points.map((r, i) => el("tr", {}, el("td", {}, i + 1), r.map((p) => el("td", {}, p)))),
      el("tr", { class: "fr-total" }, el("th", {}, "total"), seats.map((s) => el("th", {}, view.scores?.[s] ?? 0))))));
}

// The ranks' numbers, one row per rank (from the faces of the spades).
function legend(ctx) {
  const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const rows = ranks.map((r) => [r, ctx.face(`${r}S`)]).filter(([, f]) => f);
  if (!rows.length) return null;
  const value = (f, label) => (f.stats || []).find((s) => s.label === label)?.value ?? "";
  return el("details", { class: "fr-legend" }, el("summary", {}, "Card values"),
    el("p", { class: "small" }, "Strength decides attacks and blocks (a royal has 0). Royals score points: kept in your hand when the round ends, or captured by your attack."),
    el("div", { class: "fr-scroll" }, el("table", { class: "scores" },
      el("tr", {}, el("th", {}, "card"), el("th", {}, "strength"), el("th", {}, "kept"), el("th", {}, "captured")),
      rows.map(([r, f]) => el("tr", { title: f.text || "" }, el("td", {}, r === "A" || r === "J" || r === "Q" || r === "K" ? f.name.split(" ")[0] : r),
        el("td", {}, value(f, "strength")), el("td", {}, value(f, "kept")), el("td", {}, value(f, "captured")))))));
}

export default {
  faceKey(id) { return id; },
  terms: TERMS,

  render(view, ctx) {
    const drawn = view.drawn;
    const hands = view.hands || [];
    const me = view.seat;
    const ordered = [...hands.filter((h) => h.seat !== me), ...hands.filter((h) => h.seat === me)];
    // Your seat is your hand, drawn on one line: it goes whole to the hand's dock.
    const own = hands.find((h) => ctx.isYou(h.seat));
    const goal = view.rounds ? `${plural(view.rounds, "round")} in all` : `first to ${view.target_score} points`;
    const text = prompt(view, ctx);
    return el("div", { class: "board royals" },
      el("div", { class: "info-bar" },
        view.round ? stat("round", view.round) : null, stat("goal", goal), stat("phase", PHASES[view.phase] || view.phase),
        view.round ? stat("play goes", view.direction) : null,
        view.even_round ? stat("", "Even Round (cards left in the deck)") : null),
      text ? el("p", { class: "fr-prompt" }, cap(text)) : null,
      el("div", { class: "row piles fr-piles" },
        pile("deck", view.deck),
        pile("discard", (view.discard || []).length, { top: view.discard?.length ? faceUp(view.discard.at(-1), ctx, { small: true, ref: null }) : null }),
        view.set_aside_count ? pile("set aside", view.set_aside_count) : null,
        drawn ? el("div", { class: "fr-drawn" }, el("span", { class: "stat-label" }, ctx.isYou(drawn.seat) ? "you drew" : `${ctx.name(drawn.seat)} drew`),
          drawn.card ? faceUp(drawn.card, ctx, { ref: null }) : hiddenCard("the drawn card")) : null),
      view.round_end ? el("p", { class: "fr-round-end" }, `Round ${view.round} is over because ${reasonWords(view.round_end, ctx)}.`) : null,
      firstDraws(view, ctx),
      el("div", { class: "fr-seats" }, ordered.filter((h) => h !== own).map((h) => seatZone(h, view, ctx))),
      pointsTable(view, ctx),
      legend(ctx),
      own ? handDock(seatZone(own, view, ctx)) : null);
  },

  refs(a, ctx) {
    const v = ctx.view || {};
    switch (a.type) {
      case "place": return [endRef(v.seat, a.end)];
      case "attack": return [...a.cards, endRef(v.attack_target, a.side)];
      case "discard_ace": return [a.card];
      case "move": {
        const cards = myCards(v);
        return cards[a.from] && cards[a.to] ? [cards[a.from], cards[a.to]] : [];
      }
      case "choose_first": return [seatRef(a.seat)];
      default: return [];
    }
  },

  label(a, ctx) {
    const v = ctx.view || {};
    switch (a.type) {
      case "place": return `Place ${v.drawn?.card ? shortName(v.drawn.card) : "the card"} at the ${a.end} end`;
      case "keep_dealt": {
        const [l, r] = myCards(v);
        return l && r ? `Keep ${shortName(l)} left and ${shortName(r)} right` : "Keep the two dealt cards as they are";
      }
      case "swap_dealt": {
        const [l, r] = myCards(v);
        return l && r ? `Swap them (${shortName(r)} left, ${shortName(l)} right)` : "Swap the two dealt cards";
      }
      case "keep": return "Keep your hand as it is";
      case "move": {
        const cards = myCards(v);
        const moved = cards[a.from] ? shortName(cards[a.from]) : `card ${a.from + 1}`;
        const there = cards[a.to] ? shortName(cards[a.to]) : null;
        const side = a.to > a.from ? "right" : "left";
        return `Move ${moved} to place ${a.to + 1}${there ? ` (${side} of ${there})` : ""}`;
      }
      case "pass": return "Pass";
      case "done": return 'Call "done" and end the round';
      case "discard_ace": return `Discard ${shortName(a.card)} and draw a card`;
      case "attack": return `Attack ${whose(v.attack_target, ctx)} ${a.side} end with ${cardsWords(a.cards)}`;
      case "choose_first": return ctx.isYou(a.seat) ? "You go first" : `${ctx.name(a.seat)} goes first`;
      default: return null;
    }
  },

  describe(e, ctx) {
    const text = sentence(e, ctx);
    return typeof text === "string" ? cap(text) : text;
  },

  ending(view, outcome, ctx) {
    const winners = outcome?.winners || view.winners || [];
    const reason = outcome?.reason || view.result;
    if (!winners.length) return null;
    return winWords(winners, reason, ctx, outcome?.scores?.[winners[0]] ?? view.scores?.[winners[0]]);
  },
};

// One sentence per event of the kind (undefined: not one of its events).
function sentence(e, ctx) {
  const d = e.data || {};
  const s = d.seat;
  switch (e.type) {
    case "GameStarted": {
      const goal = d.rounds ? `after ${plural(d.rounds, "round")} the highest score wins` : `the first to ${d.target} points wins`;
      return `A game of Fortress for ${d.players} players begins; ${goal}.`;
    }
    case "FirstCardsDrawn": {
      const draws = (d.cards || []).map((id, seat) => (id === null || id === undefined ? null : `${whoIn(seat, ctx)} ${verb(seat, ctx, "draw")} ${shortName(id)}`)).filter(Boolean);
      const high = d.high || [];
      const then = high.length === 1
        ? `${whoIn(high[0], ctx)} ${verb(high[0], ctx, "choose")} who goes first`
        : `${listWords(high.map((i) => whoIn(i, ctx)))} tie for the highest card and draw again`;
      return `${cap(`for the first player, ${listWords(draws)}`)}; ${then}.`;
    }
    case "FirstPlayerChosen":
      if (d.by === d.seat) return `${ctx.who(d.by)} ${verb(d.by, ctx, "choose")} to go first.`;
      return `${ctx.who(d.by)} ${verb(d.by, ctx, "choose")} ${whoIn(d.seat, ctx)} to go first.`;
    case "RoundStarted":
      return `Round ${d.round} begins, played ${d.direction === 1 ? "clockwise" : "counter-clockwise"}${d.even ? " on the cards left in the deck (the Even Round)" : ""}.`;
    case "DeckShuffled": return `The deck of ${plural(Array.isArray(d.deck) ? d.deck.length : d.count, "card")} is shuffled.`;
    case "CardsDealt":
      if (Array.isArray(d.cards)) return `${ctx.who(s)} ${verb(s, ctx, "are", "is")} dealt ${cardsWords(d.cards)}.`;
      return `${ctx.who(s)} ${verb(s, ctx, "are", "is")} dealt ${plural(d.count ?? 2, "card")}.`;
    case "DealtCardsArranged":
      if (d.swapped === undefined) return `${ctx.who(s)} ${verb(s, ctx, "set")} the two dealt cards in order.`;
      return d.swapped ? `${ctx.who(s)} ${verb(s, ctx, "swap")} the two dealt cards.` : `${ctx.who(s)} ${verb(s, ctx, "keep")} the two dealt cards as they were.`;
    case "CardDrawn":
      return d.card ? `${ctx.who(s)} ${verb(s, ctx, "draw")} ${shortName(d.card)}.` : `${ctx.who(s)} ${verb(s, ctx, "draw")} a card.`;
    case "CardPlaced": return `${ctx.who(s)} ${verb(s, ctx, "place")} it at the ${d.end} end of ${ctx.isYou(s) ? "your" : "their"} hand.`;
    case "DrawsCompleted": return "Every hand holds 10 cards; each player may now move one card.";
    case "HandFinalized":
      if (d.move === undefined) return `${ctx.who(s)} ${verb(s, ctx, "finish", "finishes")} arranging ${ctx.isYou(s) ? "your" : "their"} hand.`;
      if (d.move === null) return `${ctx.who(s)} ${verb(s, ctx, "keep")} ${ctx.isYou(s) ? "your" : "their"} hand as it is.`;
      return `${ctx.who(s)} ${verb(s, ctx, "move")} the card in place ${d.move[0] + 1} to place ${d.move[1] + 1}.`;
    case "AttackResolved": {
      const t = d.target;
      let text = `${ctx.who(s)} ${verb(s, ctx, "attack")} the ${d.side} end of ${whose(t, ctx)} hand with ${cardsWords(d.cards)}`;
      if (d.result === "broken") {
        text += ` and ${verb(s, ctx, "break")} ${cardsWords(d.broken)}`;
        if (d.captured_by_attacker?.length) text += `, capturing ${cardsWords(d.captured_by_attacker)}`;
      } else {
        text += `, blocked by ${cardsWords(d.revealed)}, now shown`;
      }
      if (d.captured_by_defender?.length) text += `; ${whoIn(t, ctx)} ${verb(t, ctx, "take")} the attacking ${d.captured_by_defender.length === 1 ? "royal" : "royals"}`;
      return `${text}.`;
    }
    case "AceDiscarded": return `${ctx.who(s)} ${verb(s, ctx, "discard")} ${shortName(d.card)} to draw a new card.`;
    case "TurnPassed": return `${ctx.who(s)} ${verb(s, ctx, "pass", "passes")}.`;
    case "DoneCalled": return `${ctx.who(s)} ${verb(s, ctx, "call")} "done".`;
    case "RoundEnded": {
      const parts = (d.points || []).map((p, seat) => `${whoIn(seat, ctx)} ${verb(seat, ctx, "score")} ${p} (${d.scores?.[seat] ?? p} in all)`);
      return `Round ${d.round} ends because ${reasonWords(d.reason, ctx)}; ${listWords(parts)}.`;
    }
    case "GameWon": return winWords(d.winners || [], d.reason, ctx);
    default: return undefined;
  }
}
