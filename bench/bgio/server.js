// The boardgame.io server of the peer benchmark (bench/bgio.py starts it):
//   node server.js PORT API_PORT memory|flatfile [DIR]
// hosts bench/bgio/game.js with boardgame.io's socket.io transport on PORT and its
// lobby API on API_PORT (a port of its own: lobbyConfig.apiPort), storing matches in
// memory (InMemory) or in files under DIR (FlatFile, node-persist). Prints "ready" once
// both listen; stops on SIGTERM.
//
// FlatFile is started with node-persist's write queue off. With it on (node-persist's
// default since 3.1, and FlatFile passes no option for it), a write that arrives while
// another is being written waits for the queue's next 1-second tick, and a move writes
// several keys: measured here, 1.3 moves/s with one game and about 35 with sixteen, the
// opponent told about 1 s after each move. Off, every write goes straight to
// fs.writeFile, as in node-persist 3.0 (no fsync either way).

const { Server, FlatFile, Origins } = require('boardgame.io/server');
const { CardGame } = require('./game');

const [port, apiPort, storage, dir] = process.argv.slice(2);
if (!port || !apiPort || !['memory', 'flatfile'].includes(storage) || (storage === 'flatfile' && !dir)) {
  console.error('usage: node server.js PORT API_PORT memory|flatfile [DIR]');
  process.exit(2);
}

// With no db, boardgame.io stores in memory (its InMemory, which it does not export).
delete process.env.FLATFILE_DIR;
class FlatFileWithoutQueue extends FlatFile {
  async connect() {
    await this.games.init({ dir: this.dir, logging: this.logging, ttl: this.ttl, writeQueue: false });
  }
}

const db = storage === 'flatfile' ? new FlatFileWithoutQueue({ dir, logging: false }) : undefined;
const server = Server({ games: [CardGame], db, origins: [Origins.LOCALHOST] });

server
  .run({ port: Number(port), lobbyConfig: { apiPort: Number(apiPort) } })
  .then((running) => {
    console.log('ready');
    process.on('SIGTERM', () => {
      server.kill(running);
      process.exit(0);
    });
  });
