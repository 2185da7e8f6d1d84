// The clients of the peer benchmark (bench/bgio.py runs this): one Node process
// plays the benchmark's card game on either server, N games at a time.
//
//   node drive.js '<json settings>'
//
// settings: side ("bgio" or "ours"), server (the base URL of the game server: socket.io
// for bgio, the REST API for ours), api (bgio's lobby API), concurrencies ([1, 16]),
// warm and window
// (seconds), windows (how many measured windows), moves (each game's move limit).
//
// Each game has two seats, each with its own connection: boardgame.io's own Client
// with its SocketIO transport, or, for ours, keep-alive HTTP for the moves and one
// Server-Sent Events stream per seat. A seat moves as soon as its own connection tells
// it that it is its turn, with one policy on both sides: a random card of its hand that
// matches the pile's top card, else a draw. So the loop is: move, the opponent is
// notified, the opponent moves. Recorded per move: the time from sending it to the
// opponent's notification of it. A game slot plays its games one after another,
// creating the next one while it plays.
//
// Prints one JSON line: per concurrency, the notifications as [seconds since the end
// of the warm-up, milliseconds from the move], and counts of games and failures.

const http = require('http');
const { performance } = require('perf_hooks');

const settings = JSON.parse(process.argv[2]);
const { matches } = require('./game');

const now = () => performance.now();
const pick = (items) => items[Math.floor(Math.random() * items.length)];

function choose(hand, top) {
  const playable = hand.filter((card) => matches(card, top));
  return playable.length > 0 ? { type: 'play', card: pick(playable) } : { type: 'draw' };
}

// -- the run: slots of games, windows of time ------------------------------------------

class Run {
  constructor(concurrency) {
    this.concurrency = concurrency;
    this.records = [];
    this.started = 0; // end of the warm-up
    this.stopping = false;
    this.played = 0;
    this.failures = [];
  }

  notified(sentAt) {
    const at = now();
    this.records.push([(at - this.started) / 1000, at - sentAt]);
  }
}

async function measure(side, concurrency) {
  const run = new Run(concurrency);
  const first = [];
  for (let i = 0; i < concurrency; i += 1) first.push(await side.create());
  // A slot creates its next game while it plays the current one: creating games is part
  // of the load, as on a live server (one for every 60 to 100 moves), but no slot waits.
  const slot = async (index) => {
    let game = first[index];
    while (!run.stopping) {
      const next = side.create();
      next.catch(() => {});
      try {
        await side.play(game, run);
        run.played += 1;
      } catch (error) {
        run.failures.push(String(error && error.message ? error.message : error));
        if (run.failures.length > 50) throw error;
      }
      if (run.stopping) break;
      game = await next;
    }
  };
  const begun = now();
  run.started = begun + settings.warm * 1000;
  const slots = first.map((_, index) => slot(index));
  const total = settings.warm + settings.window * settings.windows;
  await new Promise((resolve) => setTimeout(resolve, total * 1000));
  run.stopping = true;
  await Promise.race([Promise.all(slots), new Promise((resolve) => setTimeout(resolve, 3000))]);
  return {
    concurrency,
    records: run.records.filter(([t]) => t >= 0 && t < settings.window * settings.windows),
    moves_all: run.records.length,
    games_finished: run.played,
    failures: run.failures.slice(0, 5),
    failure_count: run.failures.length,
  };
}

// -- boardgame.io -------------------------------------------------------------------------

function bgioSide() {
  const { Client, LobbyClient } = require('boardgame.io/client');
  const { SocketIO } = require('boardgame.io/multiplayer');
  const { CardGame } = require('./game');
  const lobby = new LobbyClient({ server: settings.api });

  return {
    async create() {
      const { matchID } = await lobby.createMatch(CardGame.name, {
        numPlayers: 2,
        setupData: { moves: settings.moves },
      });
      const credentials = [];
      for (const playerID of ['0', '1']) {
        const joined = await lobby.joinMatch(CardGame.name, matchID, { playerID, playerName: `p${playerID}` });
        credentials.push(joined.playerCredentials);
      }
      return { matchID, credentials };
    },

    play(game, run) {
      return new Promise((resolve, reject) => {
        const sent = new Map(); // move number -> [seat, time sent]
        const seen = [0, 0];
        const synced = [false, false];
        let finished = false;
        const clients = ['0', '1'].map((playerID, seat) =>
          Client({
            game: CardGame,
            numPlayers: 2,
            matchID: game.matchID,
            playerID,
            credentials: game.credentials[seat],
            multiplayer: SocketIO({ server: settings.server }),
            debug: false,
          }),
        );
        let watchdog;
        const end = (error) => {
          if (finished) return;
          finished = true;
          clearTimeout(watchdog);
          for (const client of clients) client.stop();
          if (error) reject(error);
          else resolve();
        };
        const stalled = () => end(new Error(`bgio match ${game.matchID} made no progress for 10 s`));
        const moveIfMine = (seat, state) => {
          const { G, ctx } = state;
          if (ctx.gameover || ctx.currentPlayer !== String(seat) || sent.has(G.moves + 1)) return;
          if (run.stopping) return end();
          const action = choose(G.hands[seat], G.top);
          sent.set(G.moves + 1, [seat, now()]);
          if (action.type === 'play') clients[seat].moves.play(action.card);
          else clients[seat].moves.draw();
        };
        clients.forEach((client, seat) => {
          client.subscribe((state) => {
            if (!state || finished) return;
            clearTimeout(watchdog);
            watchdog = setTimeout(stalled, 10000);
            const { G, ctx } = state;
            for (let move = seen[seat] + 1; move <= G.moves; move += 1) {
              const mover = sent.get(move);
              if (mover && mover[0] !== seat) run.notified(mover[1]);
            }
            seen[seat] = Math.max(seen[seat], G.moves);
            if (ctx.gameover) {
              if (seen[0] === G.moves && seen[1] === G.moves) end();
              return;
            }
            if (!synced[seat]) {
              synced[seat] = true;
              if (!synced[1 - seat]) return;
              // Both seats hold the match: whoever is to move starts.
              const other = clients[1 - seat].getState();
              moveIfMine(seat, state);
              if (other) moveIfMine(1 - seat, other);
              return;
            }
            if (synced[0] && synced[1]) moveIfMine(seat, state);
          });
          client.start();
        });
        watchdog = setTimeout(stalled, 10000);
      });
    },
  };
}

// -- ours: keep-alive HTTP for the moves, Server-Sent Events for the news ------------------

function oursSide() {
  const base = new URL(settings.server);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

  const request = (method, path, token, body, headers = {}) =>
    new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          method,
          path,
          agent,
          headers: {
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
            ...(data ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            resolve({ status: res.statusCode, body: text ? JSON.parse(text) : null });
          });
        },
      );
      req.on('error', reject);
      if (data) req.write(data);
      req.end();
    });

  // One SSE stream: calls onEvent(event) for each game event; resolves once open.
  const subscribe = (gameId, token, after, onEvent, onError) =>
    new Promise((resolve, reject) => {
      const req = http.request({
        host: base.hostname,
        port: base.port,
        path: `/v1/games/${gameId}/events/stream?after=${after}`,
        headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
        agent: false,
      });
      req.on('response', (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`SSE answered ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk) => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block
              .split('\n')
              .filter((line) => line.startsWith('data: '))
              .map((line) => line.slice(6))
              .join('\n');
            const named = block.split('\n').find((line) => line.startsWith('event: '));
            if (data && named && named !== 'event: chat') onEvent(JSON.parse(data));
          }
        });
        res.on('error', () => {});
        resolve(req);
      });
      req.on('error', (error) => {
        if (onError) onError(error);
        reject(error);
      });
      req.end();
    });

  return {
    async create() {
      const created = await request('POST', '/v1/games', null, {
        kind: 'bench-cardgame',
        players: [{ name: 'p0' }, { name: 'p1' }],
        options: { moves: settings.moves },
      });
      if (created.status !== 201) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
      const tokens = [0, 1].map((seat) => created.body.seats.find((s) => s.seat === seat).token);
      return { id: created.body.id, tokens };
    },

    async play(game, run) {
      // What each seat knows: its hand, the pile's top, the deck's size, the version.
      const seats = [];
      for (const seat of [0, 1]) {
        const got = await request('GET', `/v1/games/${game.id}`, game.tokens[seat]);
        if (got.status !== 200) throw new Error(`GET game answered ${got.status}`);
        const { view, version } = got.body;
        seats.push({ hand: [...view.hands[seat]], top: view.top, deck: view.deck, moves: view.moves, version, turn: view.turn });
      }
      const limit = settings.moves;
      return new Promise((resolve, reject) => {
        const sentAt = new Map(); // move number -> time sent
        let finished = false;
        let watchdog;
        const streams = [];
        const end = (error) => {
          if (finished) return;
          finished = true;
          clearTimeout(watchdog);
          for (const stream of streams) stream.destroy();
          if (error) reject(error);
          else resolve();
        };
        const over = (known) => known.moves >= limit || known.deck === 0;
        // A move's answer can come after the opponent's next move (its own connection),
        // so the public part of the table is taken only from events newer than the last.
        const learn = (known, event) => {
          if (event.version <= known.version) return;
          known.version = event.version;
          if (event.type === 'CardPlayed') known.top = event.data.card;
          if (event.data.deck !== undefined) known.deck = event.data.deck;
          if (event.data.moves !== undefined) known.moves = event.data.moves;
        };
        const move = async (seat) => {
          if (finished) return;
          if (run.stopping) return end();
          const known = seats[seat];
          const action = choose(known.hand, known.top);
          const expected = known.version;
          if (action.type === 'play') {
            // The answer may come after the opponent's next event, which carries a newer
            // version: what this move changes in public is taken now.
            known.hand = known.hand.filter((card) => card !== action.card);
            known.top = action.card;
          }
          sentAt.set(known.moves + 1, now());
          let answer;
          try {
            answer = await request(
              'POST',
              `/v1/games/${game.id}/actions`,
              game.tokens[seat],
              { action, expected_version: expected },
              { 'Idempotency-Key': `${game.id}-${expected}` },
            );
          } catch (error) {
            return end(error);
          }
          if (answer.status !== 200) {
            return end(new Error(`action answered ${answer.status}: ${JSON.stringify(answer.body)}`));
          }
          for (const event of answer.body.events) {
            if (event.type === 'CardDrawn') known.hand.push(event.data.card);
            learn(known, event);
          }
        };
        const onEvent = (seat) => (event) => {
          if (finished) return;
          if (event.seat === seat || (event.type !== 'CardPlayed' && event.type !== 'CardDrawn')) return;
          clearTimeout(watchdog);
          watchdog = setTimeout(stalled, 10000);
          const known = seats[seat];
          const sent = sentAt.get(event.data.moves);
          if (sent !== undefined) run.notified(sent);
          learn(known, event);
          if (over(known)) end();
          else move(seat);
        };
        const stalled = () => end(new Error(`game ${game.id} made no progress for 10 s`));
        Promise.all([0, 1].map((seat) => subscribe(game.id, game.tokens[seat], seats[seat].version, onEvent(seat), end)))
          .then((opened) => {
            streams.push(...opened);
            if (finished) return end();
            watchdog = setTimeout(stalled, 10000);
            move(seats[0].turn);
          })
          .catch(end);
      });
    },
  };
}

async function main() {
  const side = settings.side === 'bgio' ? bgioSide() : oursSide();
  const results = [];
  for (const concurrency of settings.concurrencies) {
    results.push(await measure(side, concurrency));
  }
  // Exit once the pipe has taken the whole line (the sockets left open would keep us).
  process.stdout.write(JSON.stringify({ side: settings.side, results }) + '\n', () => process.exit(0));
}

main().catch((error) => {
  console.error(error && error.stack ? error.stack : error);
  process.exit(1);
});
