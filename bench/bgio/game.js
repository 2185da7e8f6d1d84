// The benchmark's card game as a boardgame.io game object: the same rules as
// bench/cardgame.py, the kind tablestream hosts for the same benchmark.
//
// A shuffled 52-card deck deals five hidden cards to each seat and one face up onto a
// shared pile. On its turn a seat plays a card from its hand that matches the pile's
// top card in rank or suit, or draws the top card of the deck; then the turn passes.
// The game ends once `moves` moves are made (setupData.moves, 100 by default) or the
// deck is empty; fewer cards in hand wins.
//
// playerView hides the other hand and the deck's order, so the moves run on the server
// only (client: false): a client could not compute them from what it is shown.

const { INVALID_MOVE } = require('boardgame.io/core');

const RANKS = '23456789TJQKA';
const SUITS = 'CDHS';
const DECK = [...SUITS].flatMap((suit) => [...RANKS].map((rank) => rank + suit));
const HAND = 5;
const MOVES = 100;

const matches = (card, top) => card[0] === top[0] || card[1] === top[1];

function play({ G, playerID }, card) {
  const hand = G.hands[playerID];
  if (typeof card !== 'string' || !hand.includes(card) || !matches(card, G.pile[G.pile.length - 1])) {
    return INVALID_MOVE;
  }
  G.hands[playerID] = hand.filter((c) => c !== card);
  G.pile.push(card);
  G.played[playerID] += 1;
  G.moves += 1;
}

function draw({ G, playerID }, ...extra) {
  if (extra.length > 0 || G.deck.length === 0) return INVALID_MOVE;
  G.hands[playerID].push(G.deck.shift());
  G.moves += 1;
}

const CardGame = {
  name: 'bench-cardgame',
  minPlayers: 2,
  maxPlayers: 2,

  setup: ({ random }, setupData) => {
    const deck = random.Shuffle(DECK);
    return {
      deck: deck.slice(2 * HAND + 1),
      hands: { 0: deck.slice(0, HAND), 1: deck.slice(HAND, 2 * HAND) },
      pile: [deck[2 * HAND]],
      played: { 0: 0, 1: 0 },
      moves: 0,
      limit: (setupData && setupData.moves) || MOVES,
    };
  },

  validateSetupData: (setupData) =>
    setupData === undefined || (Number.isInteger(setupData.moves) && setupData.moves > 0)
      ? undefined
      : 'moves must be a positive integer',

  playerView: ({ G, playerID }) => ({
    moves: G.moves,
    limit: G.limit,
    deck: G.deck.length,
    top: G.pile[G.pile.length - 1],
    pile: G.pile.length,
    played: G.played,
    hands: Object.fromEntries(
      Object.entries(G.hands).map(([seat, hand]) => [seat, seat === playerID ? hand : hand.length]),
    ),
  }),

  turn: { minMoves: 1, maxMoves: 1 },

  moves: {
    play: { move: play, client: false },
    draw: { move: draw, client: false },
  },

  endIf: ({ G }) => {
    if (G.moves < G.limit && G.deck.length > 0) return undefined;
    const left = [G.hands[0].length, G.hands[1].length];
    if (left[0] === left[1]) return { draw: true };
    return { winner: left[0] < left[1] ? '0' : '1' };
  },
};

module.exports = { CardGame, DECK, HAND, matches };
