// The web client's verifier (service/client/verify.js) from the command line, for tests:
//
//   node tests/verify/verify_cli.mjs FILE [--head V:HASH] [--log-key VKEY] [--pure]
//     prints the verdict on a record or an export as JSON; exit 0 when it verifies,
//     1 when it does not, 2 when the input (or the log key) cannot be read.
//   node tests/verify/verify_cli.mjs --batch < cases.json
//     reads [{"file", "head": [V, HASH] or null, "pure": bool, "log_key": VKEY or null,
//     "latest": {"checkpoint", "consistency", "entry", "inclusion"} or null}, ...] and
//     prints the list of verdicts (an unreadable file gives {"error": ...}): one node for
//     many cases. "latest" is what the server says now, as service/verifier.py's Latest.
//   node tests/verify/verify_cli.mjs --live < pushes.json
//     reads [[event, ...], ...]: the pieces a table receives, in order; pushes each to
//     the table's LiveChain and prints the list of its states after each push.
//
// --pure hashes with the verifier's own SHA-256 and SHA-512 instead of crypto.subtle.

import { readFileSync } from "node:fs";
import { LiveChain, Unreadable, parseRecord, parseVkey, usePureHashing, verifyRecord } from "../../service/client/verify.js";

async function verdictOn(file, expectedHead, pure, logKey = null, latest = null) {
  usePureHashing(pure);
  let record;
  try {
    record = parseRecord(readFileSync(file === "-" ? 0 : file, "utf8"));
  } catch (error) {
    if (!(error instanceof Unreadable) && !error.code) throw error;
    return { error: error.message };
  }
  return verifyRecord(record, { expectedHead, logKey, latest });
}

const args = process.argv.slice(2);
if (args[0] === "--batch") {
  const cases = JSON.parse(readFileSync(0, "utf8"));
  const out = [];
  for (const c of cases) {
    const head = c.head ? { version: c.head[0], hash: c.head[1] } : null;
    out.push(await verdictOn(c.file, head, !!c.pure, c.log_key ?? null, c.latest ?? null));
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
} else if (args[0] === "--live") {
  const chain = new LiveChain();
  const out = [];
  for (const piece of JSON.parse(readFileSync(0, "utf8"))) out.push(await chain.push(piece));
  process.stdout.write(`${JSON.stringify(out)}\n`);
} else {
  let file = "-";
  let expectedHead = null;
  let logKey = null;
  let pure = false;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === "--pure") pure = true;
    else if (args[i] === "--head") {
      const [version, hash] = (args[i + 1] || "").split(":");
      expectedHead = { version: Number(version), hash };
      i += 1;
    } else if (args[i] === "--log-key") {
      logKey = args[i + 1] ?? "";
      i += 1;
    } else file = args[i];
  }
  // A malformed key is the caller's mistake, refused before any record is read.
  if (logKey !== null && await parseVkey(logKey) === null) {
    process.stderr.write("error: a log key is <name>+<key id>+<base64 key> (GET /v1/ledger/key)\n");
    process.exit(2);
  }
  const verdict = await verdictOn(file, expectedHead, pure, logKey);
  process.stdout.write(`${JSON.stringify(verdict)}\n`);
  process.exit(verdict.error ? 2 : verdict.ok ? 0 : 1);
}
