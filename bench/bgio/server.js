// The boardgame.io server of the peer benchmark (bench/bgio.py starts it):
//   node server.js PORT API_PORT memory|flatfile [DIR]
// hosts bench/bgio/game.js with boardgame.io's socket.io transport on PORT and its
// lobby API on API_PORT (a port of its own: lobbyConfig.apiPort), storing matches in
// memory (InMemory) or in files under DIR (FlatFile, node-persist). Prints "ready" once
// both listen; stops on SIGTERM.

const { Server, FlatFile, Origins } = require('boardgame.io/server');
const { CardGame } = require('./game');

const [port, apiPort, storage, dir] = process.argv.slice(2);
if (!port || !apiPort || !['memory', 'flatfile'].includes(storage) || (storage === 'flatfile' && !dir)) {
  console.error('usage: node server.js PORT API_PORT memory|flatfile [DIR]');
  process.exit(2);
}

// With no db, boardgame.io stores in memory (its InMemory, which it does not export).
delete process.env.FLATFILE_DIR;
const db = storage === 'flatfile' ? new FlatFile({ dir, logging: false }) : undefined;
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
