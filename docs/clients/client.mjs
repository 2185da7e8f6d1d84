// The smallest complete tablestream client: it creates a game against bots, plays its
// seat to the end and prints the outcome. Node 18+, nothing but its built-in fetch.
//
//   node docs/clients/client.mjs --base http://127.0.0.1:8000
//   node docs/clients/client.mjs --kind fortress-siege --options '{}' --bot greedy
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

// The per-token limit is a rate (20 requests a second by default): spaced this far apart,
// no request of ours is refused, and a burst is not answered by a second's wait.
const PACE_MS = 50;
let nextRequest = 0;

// An application/problem+json answer: `code` is stable (stale_version, game_over, ...).
class Problem extends Error {
  constructor(status, body) {
    super(`${status} ${body.code}: ${body.detail}`);
    this.code = body.code;
  }
}

// fetch that waits out a 429 for its Retry-After, and sends the same request again when it
// got no answer, a 503 or a 409 request_in_progress. That is safe for a POST only because
// it carries an Idempotency-Key: the server appends a command once however often it arrives.
async function send(url, init) {
  for (let failures = 0; failures < 8; ) {
    await sleep(Math.max(0, nextRequest - Date.now()) / 1000);
    nextRequest = Date.now() + PACE_MS;
    let response = null;
    try {
      response = await fetch(url, init);
    } catch (error) {
      if (init.signal?.aborted) throw error; // our own watchdog: let the caller decide
    } // else no connection or reset: we cannot know if it was done, so send it again
    if (response?.status === 429) { // over the rate limit: nothing was done, wait as told
      const wait = Number(response.headers.get("Retry-After") || 1);
      console.error(`429 rate_limited: waiting ${wait} s`);
      await sleep(wait);
      continue;
    }
    if (response?.ok) return response;
    if (response) {
      const problem = await response.json();
      // 503, or our first try of this key still running: ask again in a moment.
      const retry = response.status === 503 || problem.code === "request_in_progress";
      if (!retry) throw new Problem(response.status, problem);
    }
    await sleep(0.25 * 2 ** failures); // back off: 0.25 s, 0.5 s, 1 s, ...
    failures += 1;
  }
  throw new Error(`no answer from ${url}`);
}

async function call(base, method, path, { token, body } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method === "POST") headers["Idempotency-Key"] = randomUUID(); // one per command, kept by its retries
  const response = await send(base + path, { method, headers, body: body && JSON.stringify(body) });
  return response.json();
}

// The game's events as they are appended, after version `after`. A dropped connection is
// opened again from the last version seen (Last-Event-ID); the server ends the stream once
// the game is over and every event has been sent.
async function* follow(base, gameId, token, after) {
  for (;;) {
    const watchdog = new AbortController(); // a heartbeat comes every 15 s: a silent minute is a dead line
    let timer = setTimeout(() => watchdog.abort(), 60000);
    const headers = { Authorization: `Bearer ${token}`, Accept: "text/event-stream", "Last-Event-ID": String(after) };
    try {
      const response = await send(`${base}/v1/games/${gameId}/events/stream`, { headers, signal: watchdog.signal });
      let buffer = "";
      for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
        clearTimeout(timer);
        timer = setTimeout(() => watchdog.abort(), 60000);
        buffer += chunk.replace(/\r\n?/g, "\n");
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) { // a blank line ends a message
          const lines = buffer.slice(0, end).split("\n");
          buffer = buffer.slice(end + 2);
          const data = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim());
          // Table chat shares the stream as `event: chat`; it has no version.
          if (!data.length || lines.includes("event: chat")) continue;
          const message = JSON.parse(data.join("\n"));
          after = message.version;
          yield message;
        }
      }
      return;
    } catch (error) {
      if (error instanceof Problem) throw error;
      await sleep(1); // cut off: reconnect from `after`
    } finally {
      clearTimeout(timer);
    }
  }
}

async function play(base, kind, options, bot) {
  const kinds = (await call(base, "GET", "/v1/kinds")).kinds;
  const minPlayers = kinds.find((k) => k.key === kind).min_players;
  const players = [{ name: "client" }, ...Array(minPlayers - 1).fill({ bot })];
  const created = await call(base, "POST", "/v1/games", { body: { kind, options, players } });
  // The seat token is shown in this answer only: keep it, it is the only way to act.
  const gameId = created.id, token = created.seats[0].token;
  console.log(`game ${gameId}: ${kind}, playing seat 0 against ${players.length - 1} ${bot} bot(s)`);

  // Our view: the board as seat 0 may see it, and our legal actions.
  const read = () => call(base, "GET", `/v1/games/${gameId}`, { token });
  let game = await read(), moves = 0;
  let stream = follow(base, gameId, token, game.version);
  while (game.status === "active") {
    if (game.legal_actions.length) { // our turn: empty unless we are to act
      const action = game.legal_actions[Math.floor(Math.random() * game.legal_actions.length)];
      const body = { action, expected_version: game.version };
      try {
        await call(base, "POST", `/v1/games/${gameId}/actions`, { token, body });
        moves += 1;
      } catch (error) { // someone moved first (or it ended): read again and decide again
        if (!(error instanceof Problem && ["stale_version", "game_over"].includes(error.code))) throw error;
      }
    } else {
      // Not our turn: wait on the stream for an event we have not read. One read shows
      // everything appended with it, so the events of the same append that follow are
      // already known and need no read of their own.
      let next;
      while (!(next = await stream.next()).done && next.value.version <= game.version);
      // The stream ended: the game is over, or we read once more and open it again.
      if (next.done) stream = follow(base, gameId, token, game.version);
    }
    game = await read();
  }
  await stream.return(); // close the stream, if still open, so that node can exit
  console.log(`game ${gameId} finished after ${moves} moves of ours: ${JSON.stringify(game.outcome)}`);
  return game;
}

const { values } = parseArgs({
  options: {
    base: { type: "string", default: "http://127.0.0.1:8000" }, // the service's address
    kind: { type: "string", default: "fortress-royals" }, // a key from GET /v1/kinds
    options: { type: "string", default: '{"rounds": 1}' }, // the kind's options, as JSON
    bot: { type: "string", default: "random" }, // random, greedy or ismcts
  },
});
await play(values.base.replace(/\/$/, ""), values.kind, JSON.parse(values.options), values.bot);
