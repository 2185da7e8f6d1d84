// The web client's verifier (service/client/verify.js) from the command line, for tests:
//
//   node tests/verify/verify_cli.mjs FILE [--head V:HASH] [--pure]
//     prints the verdict on a record or an export as JSON; exit 0 when it verifies,
//     1 when it does not, 2 when the input cannot be read.
//   node tests/verify/verify_cli.mjs --batch < cases.json
//     reads [{"file", "head": [V, HASH] or null, "pure": bool}, ...] and prints the
//     list of verdicts (an unreadable file gives {"error": ...}): one node for many cases.
//
// --pure hashes with the verifier's own SHA-256 instead of crypto.subtle.

import { readFileSync } from "node:fs";
import { Unreadable, parseRecord, usePureHashing, verifyRecord } from "../../service/client/verify.js";

async function verdictOn(file, expectedHead, pure) {
  usePureHashing(pure);
  let record;
  try {
    record = parseRecord(readFileSync(file === "-" ? 0 : file, "utf8"));
  } catch (error) {
    if (!(error instanceof Unreadable) && !error.code) throw error;
    return { error: error.message };
  }
  return verifyRecord(record, { expectedHead });
}

const args = process.argv.slice(2);
if (args[0] === "--batch") {
  const cases = JSON.parse(readFileSync(0, "utf8"));
  const out = [];
  for (const c of cases) out.push(await verdictOn(c.file, c.head ? { version: c.head[0], hash: c.head[1] } : null, !!c.pure));
  process.stdout.write(`${JSON.stringify(out)}\n`);
} else {
  let file = "-";
  let expectedHead = null;
  let pure = false;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === "--pure") pure = true;
    else if (args[i] === "--head") {
      const [version, hash] = (args[i + 1] || "").split(":");
      expectedHead = { version: Number(version), hash };
      i += 1;
    } else file = args[i];
  }
  const verdict = await verdictOn(file, expectedHead, pure);
  process.stdout.write(`${JSON.stringify(verdict)}\n`);
  process.exit(verdict.error ? 2 : verdict.ok ? 0 : 1);
}
