// A client written the way a client developer writes one: against the types that
// openapi-typescript generates from openapi.yaml (./schema), with openapi-fetch. It plays a
// game of each kind to the end, holding every seat, and prints one JSON line per game.
// tests/api/test_ts_client.py generates ./schema, compiles this with tsc --strict and runs it.
//
//   node play.js http://127.0.0.1:8000 [kind ...]    (every kind GET /v1/kinds lists by default)
import { randomUUID } from "node:crypto";
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Schemas = components["schemas"];
type Game = Schemas["Game"];
type View = Game["view"];
type Options = NonNullable<Schemas["CreateGame"]["options"]>;

const DEADLINE_MS = 240_000; // random play of one game ends long before this

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Sends a request refused by a rate limit (429) again, unchanged, after its Retry-After:
// nothing was done, so the same request (with the same Idempotency-Key) is safe to repeat.
async function patientFetch(request: Request): Promise<Response> {
  for (;;) {
    const response = await fetch(request.clone());
    if (response.status !== 429) return response;
    const seconds = Number(response.headers.get("Retry-After")) || 1;
    process.stderr.write(`429 ${request.method} ${new URL(request.url).pathname}: waiting ${seconds} s\n`);
    await sleep(1000 * seconds);
  }
}

const [base, ...chosen] = process.argv.slice(2);
if (!base) throw new Error("usage: node play.js <base URL> [kind ...]");
const api = createClient<paths>({ baseUrl: base.replace(/\/$/, ""), fetch: patientFetch });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

// Choices seeded by the kind (mulberry32), not by the clock: the same deal (a finished game
// reveals its seed) is played the same way again.
function seeded(text: string): () => number {
  let state = [...text].reduce((hash, c) => Math.imul(hash ^ c.charCodeAt(0), 16777619), 2166136261);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
}

// Short games: fortress-royals plays one round instead of to a target score, and
// stomping-grounds ends after ten rounds (random play may go on for hundreds without).
// Each is typed as its kind's options, so a misspelt or mistyped option does not compile.
function shortOptions(kind: string): Options | undefined {
  if (kind === "fortress-royals") {
    const options: Schemas["Options_fortress_royals"] = { rounds: 1 };
    return options;
  }
  if (kind === "stomping-grounds") {
    const options: Schemas["Options_stomping_grounds"] = { turn_limit: 10 };
    return options;
  }
  return undefined;
}

// One thing that only the view of its kind has, read through the narrowed type.
function glimpse(view: View): string {
  switch (view.kind) {
    case "dragoborne": {
      const forts = view.players.flatMap((player) => player.forts);
      return `${forts.filter((fort) => fort.destroyed).length} of ${forts.length} forts destroyed`;
    }
    case "dragon-fortress": {
      const turns: number = view.turns_played;
      return `${turns} turns played`;
    }
    case "fortress-royals": {
      const rounds: number | null = view.rounds;
      return rounds === null ? "played to a target score" : `${rounds} round(s) played`;
    }
    case "fortress-siege": {
      const winds: boolean = view.winds_of_fate;
      return winds ? "winds of fate" : "one deck a player";
    }
    case "stomping-grounds": {
      return `${view.realms.length} realms`;
    }
    default: {
      const unknown: never = view; // every kind the contract names is handled above
      return unknown;
    }
  }
}

async function read(gameId: string, token: string): Promise<Game> {
  const { data, error, response } = await api.GET("/v1/games/{game_id}", {
    params: { path: { game_id: gameId } },
    headers: bearer(token),
  });
  if (!data) throw new Error(`read ${gameId}: ${response.status} ${JSON.stringify(error)}`);
  return data;
}

async function play(kind: Schemas["Kind"]) {
  const players = Array.from({ length: kind.min_players }, (_, seat) => ({ name: `seat ${seat}` }));
  const created = await api.POST("/v1/games", {
    params: { header: { "Idempotency-Key": randomUUID() } },
    body: { kind: kind.key, players, options: shortOptions(kind.key) },
  });
  if (!created.data) throw new Error(`create ${kind.key}: ${created.response.status} ${JSON.stringify(created.error)}`);
  const gameId = created.data.id;
  const tokens = created.data.seats.map((seat) => {
    if (seat.token === undefined) throw new Error(`create ${kind.key}: seat ${seat.seat} came without its token`);
    return seat.token;
  });

  const random = seeded(kind.key);
  const deadline = Date.now() + DEADLINE_MS;
  let game = await read(gameId, tokens[0]);
  let moves = 0;
  while (game.outcome === null) {
    if (Date.now() > deadline) throw new Error(`${kind.key}: no end after ${moves} moves`);
    if (game.to_act.length === 0) throw new Error(`${kind.key}: in play at ${game.version} with no seat to act`);
    // The seat read last may still be to act (several moves a turn): its legal actions are here.
    const seat = game.seat !== null && game.to_act.includes(game.seat) ? game.seat : pick(random, game.to_act);
    if (game.seat !== seat) {
      game = await read(gameId, tokens[seat]);
      continue;
    }
    if (game.legal_actions.length === 0) throw new Error(`${kind.key}: seat ${seat} is to act with no legal action`);
    const action: Schemas["Action"] = pick(random, game.legal_actions);
    const acted = await api.POST("/v1/games/{game_id}/actions", {
      params: { path: { game_id: gameId }, header: { "Idempotency-Key": randomUUID() } },
      headers: bearer(tokens[seat]),
      body: { action, expected_version: game.version },
    });
    if (acted.data) moves += 1;
    else if (acted.response.status !== 409) {
      throw new Error(`${kind.key}: ${JSON.stringify(action)} at ${game.version}: ${JSON.stringify(acted.error)}`);
    } // 409: the game moved on or ended first: read again and choose again
    game = await read(gameId, tokens[seat]);
  }
  const outcome: Schemas["Outcome"] = game.outcome;
  const winners: number[] = outcome.winners;
  return { kind: kind.key, game: gameId, seats: tokens.length, moves, winners, outcome, seen: glimpse(game.view) };
}

async function main() {
  const listed = await api.GET("/v1/kinds");
  if (!listed.data) throw new Error(`kinds: ${listed.response.status} ${JSON.stringify(listed.error)}`);
  const kinds = listed.data.kinds;
  for (const key of chosen) {
    if (!kinds.some((kind) => kind.key === key)) throw new Error(`${key} is not a kind the service lists`);
  }
  // The games at once, each with its own seats' tokens: none waits for another's moves.
  const playing = kinds.filter((kind) => chosen.length === 0 || chosen.includes(kind.key));
  await Promise.all(playing.map(async (kind) => console.log(JSON.stringify(await play(kind)))));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1); // not waiting for the other games to end
});
