// A verifier of tablestream games that needs nothing of the service: it follows
// docs/verification.md alone, with SHA-256, HMAC-SHA256 and JSON.parse. It is the
// same verifier as service/verifier.py (the command `tablestream verify`), check for
// check and word for word, so the two give the same verdict on the same record.
//
// Hashing goes through crypto.subtle where the page has it (a secure context); else
// through the small SHA-256 written out below. Every check is therefore async.

export const GENESIS_HASH = "0".repeat(64);
const EXPORT_FORMAT = "tablestream-export/1";
const COMMIT = "$commit";
const FIRST_TYPES = ["GameCreated", "ForkedFrom"];
const LEDGER_HASHED = ["index", "game", "kind", "version", "hash", "at"];
const NOT_WHOLE = "holds a number that is not a whole number";
const TOO_LARGE = "holds a number too large to be read exactly";
const NOT_TEXT = "holds text that is not valid Unicode";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export class Unreadable extends Error {}

class Failed extends Error {
  constructor(version, reason) {
    super(reason);
    this.version = version;
    this.reason = reason;
  }
}

const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const isInt = (value) => Number.isInteger(value);

// -- section 1: canonical JSON ------------------------------------------------------

// Order by Unicode code point, as the spec (and Python) sorts: UTF-16 order differs
// only where a surrogate pair meets a character from U+E000 up.
function unit(code) {
  if (code >= 0xe000) return code - 0x800;
  if (code >= 0xd800) return code + 0x2000;
  return code;
}

export function compareCodePoints(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unit(x) - unit(y);
  }
  return a.length - b.length;
}

export function canonicalJson(value) {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new TypeError("canonical JSON holds whole numbers only");
    return String(value);
  }
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value).sort(compareCodePoints);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  throw new TypeError(`canonical JSON has no ${typeof value}`);
}

// Why `value` has no canonical text both verifiers agree on, or null.
function plainProblem(value) {
  const found = new Set();
  const stack = [value];
  while (stack.length) {
    const item = stack.pop();
    if (item === null || typeof item === "boolean") continue;
    if (typeof item === "number") {
      if (!Number.isInteger(item)) found.add(NOT_WHOLE);
      else if (!Number.isSafeInteger(item)) found.add(TOO_LARGE);
    } else if (typeof item === "string") {
      if (LONE_SURROGATE.test(item)) found.add(NOT_TEXT);
    } else if (Array.isArray(item)) {
      stack.push(...item);
    } else if (typeof item === "object") {
      const keys = Object.keys(item);
      if (keys.some((k) => LONE_SURROGATE.test(k))) found.add(NOT_TEXT);
      for (const k of keys) stack.push(item[k]);
    }
  }
  return [NOT_WHOLE, TOO_LARGE, NOT_TEXT].find((problem) => found.has(problem)) || null;
}

// -- SHA-256 and HMAC ---------------------------------------------------------------------

const encoder = new TextEncoder();
const utf8 = (text) => encoder.encode(text);
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

// The round constants and initial hash (FIPS 180-4, 4.2.2 and 5.3.3).
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const rotr = (x, n) => (x >>> n) | (x << (32 - n));

export function sha256Pure(bytes) {
  const length = bytes.length;
  const total = Math.ceil((length + 9) / 64) * 64;
  const block = new Uint8Array(total);
  block.set(bytes);
  block[length] = 0x80;
  const view = new DataView(block.buffer);
  view.setUint32(total - 8, Math.floor(length / 0x20000000));
  view.setUint32(total - 4, (length * 8) >>> 0);
  const h = H0.slice();
  const w = new Uint32Array(64);
  for (let offset = 0; offset < total; offset += 64) {
    for (let i = 0; i < 16; i += 1) w[i] = view.getUint32(offset + 4 * i);
    for (let i = 16; i < 64; i += 1) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i += 1) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0;
      d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    const sums = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i += 1) h[i] = (h[i] + sums[i]) >>> 0;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((word, i) => outView.setUint32(4 * i, word));
  return out;
}

export function hmacSha256Pure(key, message) {
  let k = key.length > 64 ? sha256Pure(key) : key;
  const padded = new Uint8Array(64);
  padded.set(k);
  k = padded;
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i += 1) {
    inner[i] = k[i] ^ 0x36;
    outer[i] = k[i] ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha256Pure(inner), 64);
  return sha256Pure(outer);
}

let subtle = globalThis.crypto?.subtle || null;
const hmacKeys = new Map();

// Tests force the pure SHA-256 with usePureHashing(true); pages never need to.
export function usePureHashing(pure) {
  subtle = pure ? null : globalThis.crypto?.subtle || null;
  hmacKeys.clear();
}

async function sha256(bytes) {
  if (!subtle) return sha256Pure(bytes);
  return new Uint8Array(await subtle.digest("SHA-256", bytes));
}

export async function sha256Hex(text) {
  return hex(await sha256(typeof text === "string" ? utf8(text) : text));
}

export async function hmacSha256(key, message) {
  if (!subtle) return hmacSha256Pure(utf8(key), utf8(message));
  let cryptoKey = hmacKeys.get(key);
  if (!cryptoKey) {
    cryptoKey = subtle.importKey("raw", utf8(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    hmacKeys.set(key, cryptoKey);
  }
  return new Uint8Array(await subtle.sign("HMAC", await cryptoKey, utf8(message)));
}

// -- section 2: the chain ---------------------------------------------------------------------

const schemaOf = (event) => (own(event, "schema") ? event.schema : 1);

export function hashedBody(event) {
  const schema = schemaOf(event);
  const body = {
    version: event.version,
    type: event.type,
    seat: event.seat,
    actor: event.actor,
    data: schema !== 1 && own(event, "sealed") ? event.sealed : event.data,
    at: event.at,
    command_id: event.command_id,
  };
  if (schema !== 1) body.schema = schema;
  return body;
}

export async function eventHash(prevHash, event) {
  return sha256Hex(`${prevHash}\n${canonicalJson(hashedBody(event))}`);
}

const NOUNS = { text: "text", integer: "a whole number", object: "an object" };
const FIELDS = [
  ["type", "text", false], ["seat", "integer", true], ["actor", "text", false], ["data", "object", false],
  ["at", "text", false], ["command_id", "text", true], ["prev_hash", "text", false], ["hash", "text", false],
];
const isKind = { text: (v) => typeof v === "string", integer: isInt, object: isObject };

// Why `event` is not an event the chain rule can hash, or null.
function eventProblem(event) {
  if (!isObject(event)) return "the event is not a JSON object";
  const schema = schemaOf(event);
  if (schema !== 1 && schema !== 2) return "the event has an unknown envelope schema";
  if (schema === 1 && (event.hash === null || event.hash === undefined)) {
    return "the event shows no hash: a game begun before schema 2 shows its hashes only once it is over";
  }
  for (const [name, kind, nullable] of FIELDS) {
    if (!own(event, name)) return `the event has no ${name}`;
    const value = event[name];
    if (value === null && nullable) continue;
    if (!isKind[kind](value)) return `the event's ${name} is not ${NOUNS[kind]}`;
  }
  if (own(event, "sealed")) {
    if (schema === 1) return "a schema-1 event carries a sealed form its hash does not cover";
    if (!isObject(event.sealed)) return "the event's sealed form is not an object";
  }
  const problem = plainProblem(event);
  return problem ? `the event ${problem}` : null;
}

// One event against the hash before it, for checking live: {problem, hash}.
export async function checkEvent(event, prevHash, version) {
  if (!isObject(event) || event.version !== version) {
    return { problem: `version ${version} is missing or out of order`, hash: null };
  }
  const problem = eventProblem(event);
  if (problem) return { problem, hash: null };
  if (event.prev_hash !== prevHash) return { problem: "prev_hash is not the hash of the event before it", hash: null };
  const digest = await eventHash(prevHash, event);
  if (digest !== event.hash) return { problem: "the event's content does not match its hash", hash: null };
  return { problem: null, hash: digest };
}

// -- section 3: commitments ------------------------------------------------------------------

export async function salt(seed, version, path) {
  return hmacSha256(seed, `tablestream/salt/2\n${version}\n${canonicalJson(path)}`);
}

export async function commitment(saltBytes, value) {
  const body = utf8(canonicalJson(value));
  const joined = new Uint8Array(saltBytes.length + body.length);
  joined.set(saltBytes);
  joined.set(body, saltBytes.length);
  return sha256Hex(joined);
}

const isCommitment = (value) => isObject(value) && Object.keys(value).length === 1 && typeof value[COMMIT] === "string"
  && own(value, COMMIT);

const spell = (path) => `data${path.map((p) => `[${canonicalJson(p)}]`).join("")}`;

// Check `data` against the `sealed` form its hash covers, keys in sorted order; throw
// Failed, else return the number of commitments opened. Without the seed (a game in
// play) commitments are not opened, and the caller may be shown less of them.
async function openSealed(sealed, data, seed, version, path = []) {
  if (isCommitment(sealed)) {
    if (seed === null) return 0;
    if (await commitment(await salt(seed, version, path), data) !== sealed[COMMIT]) {
      throw new Failed(version, `the hidden value at ${spell(path)} does not match its commitment`);
    }
    return 1;
  }
  if (isObject(sealed) && isObject(data)) {
    let opened = 0;
    const keys = [...new Set([...Object.keys(sealed), ...Object.keys(data)])].sort(compareCodePoints);
    for (const key of keys) {
      if (!own(data, key)) {
        if (seed !== null || !isCommitment(sealed[key])) throw new Failed(version, `${spell([...path, key])} is missing from the data`);
      } else if (!own(sealed, key)) {
        // In play a caller may be shown more than the hash covers (a count standing for
        // hidden cards); once the game is over the data is the sealed form opened.
        if (seed !== null) throw new Failed(version, `${spell([...path, key])} is in the data but not in the sealed form`);
      } else {
        opened += await openSealed(sealed[key], data[key], seed, version, [...path, key]);
      }
    }
    return opened;
  }
  if (Array.isArray(sealed) && Array.isArray(data) && sealed.length === data.length) {
    let opened = 0;
    for (let i = 0; i < sealed.length; i += 1) opened += await openSealed(sealed[i], data[i], seed, version, [...path, i]);
    return opened;
  }
  if (canonicalJson(sealed) !== canonicalJson(data)) {
    throw new Failed(version, `the data at ${spell(path)} differs from the sealed form its hash covers`);
  }
  return 0;
}

// -- section 5: random draws ---------------------------------------------------------------

class ByteStream {
  constructor(seed, label) {
    this.seed = seed;
    this.label = label;
    this.counter = 0;
    this.block = new Uint8Array(0);
    this.at = 0;
  }

  async next() {
    if (this.at === this.block.length) {
      this.block = await hmacSha256(this.seed, `tablestream/draw/2\n${this.label}\n${this.counter}`);
      this.counter += 1;
      this.at = 0;
    }
    const byte = this.block[this.at];
    this.at += 1;
    return byte;
  }
}

// An integer below n (n >= 1), read from `stream` as the recipe says: n a number up
// to 2**48, else a BigInt (where doubles would round); the answer has n's type.
export async function below(n, stream) {
  const big = typeof n === "bigint";
  if (big ? n === 1n : n === 1) return big ? 0n : 0;
  const bits = (big ? n - 1n : n - 1).toString(2).length;
  const width = Math.ceil(bits / 8);
  for (;;) {
    let value = big ? 0n : 0;
    for (let i = 0; i < width; i += 1) {
      const byte = await stream.next();
      value = big ? value * 256n + BigInt(byte) : value * 256 + byte;
    }
    value = big ? value % (1n << BigInt(bits)) : value % 2 ** bits;
    if (value < n) return value;
  }
}

export async function shuffled(items, seed, label) {
  const keyed = items.map((item) => [canonicalJson(item), item]);
  keyed.sort((x, y) => compareCodePoints(x[0], y[0]));
  const out = keyed.map((pair) => pair[1]);
  const stream = new ByteStream(seed, label);
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = await below(i + 1, stream);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function drawStream(seed, label) {
  return new ByteStream(seed, label);
}

// Re-derive one event's data.draws; throw Failed, else return how many there were.
async function checkDraws(draws, seed, version) {
  if (draws === null || draws === undefined) return 0;
  if (!Array.isArray(draws)) throw new Failed(version, "the draws are not a list");
  for (let k = 0; k < draws.length; k += 1) {
    const draw = draws[k];
    const label = `v${version}/${k}`;
    if (!isObject(draw) || draw.label !== label) throw new Failed(version, `draw ${k} is not labelled ${label}`);
    const result = own(draw, "result") ? draw.result : null;
    if (own(draw, "integer")) {
      const bounds = draw.integer;
      if (!(Array.isArray(bounds) && bounds.length === 2 && bounds.every(isInt) && bounds[0] <= bounds[1])) {
        throw new Failed(version, `draw ${label} has no valid range`);
      }
      const span = BigInt(bounds[1]) - BigInt(bounds[0]) + 1n;
      const drawn = await below(span <= 2n ** 48n ? Number(span) : span, new ByteStream(seed, label));
      if (!isInt(result) || BigInt(result) !== BigInt(bounds[0]) + BigInt(drawn)) {
        throw new Failed(version, `draw ${label} is not what the seed gives`);
      }
    } else if (own(draw, "shuffle")) {
      if (!(isInt(draw.shuffle) && Array.isArray(result) && result.length === draw.shuffle)) {
        throw new Failed(version, `shuffle ${label} does not hold the number of items it names`);
      }
      if (canonicalJson(await shuffled(result, seed, label)) !== canonicalJson(result)) {
        throw new Failed(version, `shuffle ${label} is not what the seed gives`);
      }
    } else {
      throw new Failed(version, `draw ${label} is neither an integer nor a shuffle`);
    }
  }
  return draws.length;
}

// -- section 6: the ledger --------------------------------------------------------------------

export async function ledgerEntryHash(entry) {
  const body = Object.fromEntries(LEDGER_HASHED.map((name) => [name, entry[name]]));
  return sha256Hex(`${entry.prev}\n${canonicalJson(body)}`);
}

// -- reading a record -------------------------------------------------------------------------

const textOrNull = (value) => (typeof value === "string" ? value : null);
const field = (object, key) => (own(object, key) ? object[key] : null);

// A replay record (GET /v1/games/{id}/replay), reduced to the fields the spec names.
export function recordFromReplay(raw) {
  if (!Array.isArray(raw?.events)) throw new Unreadable("the record's events are not a list");
  return {
    events: raw.events,
    game: textOrNull(raw.id),
    kind: textOrNull(raw.kind),
    status: field(raw, "status"),
    seed_commitment: field(raw, "seed_commitment"),
    seed: field(raw, "seed"),
    outcome: field(raw, "outcome"),
    has_outcome: own(raw, "outcome"),
    head: field(raw, "head"),
    ledger: field(raw, "ledger"),
    versions: null,
  };
}

// A replay record (one JSON object) or an operator's export (NDJSON after its header).
export function parseRecord(text) {
  text = text.replace(/^\uFEFF+/, "");
  let whole = null;
  try { whole = JSON.parse(text); } catch (_) { whole = null; }
  if (isObject(whole) && own(whole, "events")) return recordFromReplay(whole);
  // Split on newlines only: a stored event may hold U+2028 and the like as itself.
  const lines = text.split("\n").filter((line) => line.replace(/^[ \t\r]+|[ \t\r]+$/g, ""));
  if (!lines.length) throw new Unreadable("the input is empty");
  let header;
  try { header = JSON.parse(lines[0]); } catch (_) {
    throw new Unreadable("the input is neither a game's record (JSON) nor an export (NDJSON)");
  }
  if (!isObject(header) || header.format !== EXPORT_FORMAT) {
    throw new Unreadable(`the input is neither a game's record nor a ${EXPORT_FORMAT} export`);
  }
  const events = lines.slice(1).map((line, i) => {
    try { return JSON.parse(line); } catch (_) { throw new Unreadable(`line ${i + 2} of the export is not JSON`); }
  });
  return {
    events,
    game: textOrNull(header.game),
    kind: textOrNull(header.kind),
    status: null,
    seed_commitment: null,
    seed: field(header, "seed"),
    outcome: null,
    has_outcome: false,
    head: field(header, "head"),
    ledger: field(header, "ledger"),
    versions: field(header, "versions"),
  };
}

// -- the checks of section 7, in order --------------------------------------------------------

const counted = (number, noun) => `${number} ${noun}${number === 1 ? "" : "s"}`;

// Check a record (from parseRecord or recordFromReplay, or a replay object as served)
// as docs/verification.md section 7 says. `expectedHead` is a {version, hash} a client
// kept, which the log must still reach and hold. Resolves to the verdict:
// {ok, first_bad_version, reason, game, kind, events, over, commitments, draws, checked}.
export async function verifyRecord(record, { expectedHead = null } = {}) {
  if (!own(record, "has_outcome")) record = recordFromReplay(record);
  if (expectedHead && !(isInt(expectedHead.version) && expectedHead.version >= 1)) throw new TypeError("a head's version is 1 or more");
  const verdict = {
    ok: true, first_bad_version: null, reason: null, game: record.game, kind: record.kind,
    events: record.events.length, over: false, commitments: 0, draws: 0, checked: [],
  };
  try {
    await runChecks(record, expectedHead, verdict);
  } catch (error) {
    if (!(error instanceof Failed)) throw error;
    verdict.ok = false;
    verdict.first_bad_version = error.version;
    verdict.reason = error.reason;
  }
  return verdict;
}

export async function verifyText(text, options) {
  return verifyRecord(parseRecord(text), options);
}

async function runChecks(record, expectedHead, verdict) {
  const events = record.events;
  if (!events.length) throw new Failed(1, "the log is empty");
  // 1. versions 1, 2, ... with no gap
  events.forEach((event, i) => {
    if (!isObject(event) || event.version !== i + 1) throw new Failed(i + 1, `version ${i + 1} is missing or out of order`);
  });
  const last = events.length;
  verdict.over = events[last - 1].type === "SeedRevealed";
  verdict.checked.push(`versions 1 to ${last} with no gap`);
  // 2. the chain
  let prevHash = GENESIS_HASH;
  for (const event of events) {
    const { problem, hash } = await checkEvent(event, prevHash, event.version);
    if (problem) throw new Failed(event.version, problem);
    prevHash = hash;
  }
  verdict.checked.push(`chain of ${counted(last, "event")} linked and hashed`);
  // 3. anchors: the head, the ledger entry, a head the client kept
  const lastHash = events[last - 1].hash;
  const head = headOf(record);
  if (head !== null) {
    checkAnchor(head, last, lastHash, "its head");
    verdict.checked.push(head.hash ? `head at version ${head.version}` : `all ${head.version} versions announced`);
  }
  if (record.ledger !== null && record.ledger !== undefined) {
    const index = await checkLedger(record, last, lastHash);
    verdict.checked.push(`ledger entry ${index} holds this game's final head`);
  }
  if (expectedHead) {
    const { version, hash } = expectedHead;
    if (version > last) throw new Failed(last + 1, `the log ends at version ${last}, before the head you kept at version ${version}`);
    if (events[version - 1].hash !== hash) throw new Failed(version, `the log has another hash at version ${version} than the head you kept`);
    verdict.checked.push(`the head you kept at version ${version}`);
  }
  // 4. the seed, commitments and draws (or, in play, the open parts of the seals)
  await checkContents(record, verdict);
}

function headOf(record) {
  const head = record.head;
  if (head === null || head === undefined) {
    return Number.isSafeInteger(record.versions) ? { version: record.versions, hash: null } : null;
  }
  const hash = isObject(head) ? field(head, "hash") : null;
  if (!isObject(head) || plainProblem(head) !== null || !isInt(head.version) || !(typeof hash === "string" || hash === null)) {
    throw new Failed(record.events.length, "the record's head is not a version and a hash");
  }
  return { version: head.version, hash };
}

function checkAnchor(head, last, lastHash, name) {
  if (head.version > last) {
    throw new Failed(last + 1, `the log ends at version ${last} but ${name} is at version ${head.version}: events are missing`);
  }
  if (head.version < last) throw new Failed(head.version + 1, `the log runs past ${name} at version ${head.version}`);
  if (head.hash !== null && head.hash !== lastHash) throw new Failed(last, `the last event's hash is not the hash of ${name}`);
}

const LEDGER_FIELDS = {
  index: "integer", game: "text", kind: "text", version: "integer", hash: "text", at: "text", prev: "text",
  entry_hash: "text",
};

async function checkLedger(record, last, lastHash) {
  const entry = record.ledger;
  if (!isObject(entry) || Object.entries(LEDGER_FIELDS).some(([name, kind]) => !isKind[kind](entry[name]) || !own(entry, name))
      || plainProblem(entry) !== null) {
    throw new Failed(last, "the ledger entry is not a valid entry");
  }
  if (entry.index < 1 || (entry.index === 1 && entry.prev !== GENESIS_HASH)) {
    throw new Failed(last, "the ledger entry does not follow the entry before it");
  }
  if (await ledgerEntryHash(entry) !== entry.entry_hash) throw new Failed(last, "the ledger entry does not match its entry hash");
  if (record.game !== null && entry.game !== record.game) throw new Failed(last, `the ledger entry is for game ${entry.game}, not this one`);
  if (record.kind !== null && entry.kind !== record.kind) {
    throw new Failed(last, `the ledger entry is for a game of kind ${entry.kind}, not ${record.kind}`);
  }
  checkAnchor({ version: entry.version, hash: entry.hash }, last, lastHash, "its ledger entry");
  return entry.index;
}

async function checkContents(record, verdict) {
  const events = record.events;
  const first = events[0];
  const final = events[events.length - 1];
  const last = events.length;
  if (!FIRST_TYPES.includes(first.type)) throw new Failed(1, "the log does not begin with GameCreated or ForkedFrom");
  const seedCommitment = field(first.data, "seed_commitment");
  if (typeof seedCommitment !== "string") throw new Failed(1, "the first event carries no seed commitment");
  if (record.kind !== null && field(first.data, "kind") !== record.kind) throw new Failed(1, `the first event is not a game of kind ${record.kind}`);
  if (record.seed_commitment !== null && record.seed_commitment !== seedCommitment) {
    throw new Failed(1, "the record's seed commitment is not the first event's");
  }
  for (const event of events.slice(0, -1)) {
    if (event.type === "SeedRevealed") throw new Failed(event.version, "the seed is revealed before the last event");
  }
  const over = verdict.over;
  if (record.status === "finished" && !over) {
    throw new Failed(last + 1, "the record says the game is over, but its log ends without revealing the seed");
  }
  if (record.status !== null && record.status !== "finished" && over) {
    throw new Failed(last, "the log reveals the seed, but the record says the game is in play");
  }
  let seed = null;
  if (over) {
    seed = field(final.data, "seed");
    if (typeof seed !== "string" || await sha256Hex(seed) !== seedCommitment) {
      throw new Failed(last, "the revealed seed does not match the seed commitment");
    }
    if (record.seed !== null && record.seed !== seed) throw new Failed(last, "the record's seed is not the one the last event reveals");
    if (record.has_outcome && (plainProblem(record.outcome) !== null
        || canonicalJson(record.outcome) !== canonicalJson(field(final.data, "outcome")))) {
      throw new Failed(last, "the record's outcome is not the one the last event holds");
    }
    verdict.checked.push("seed matches its commitment");
  } else if (record.seed !== null) {
    // an operator's export of a game in play carries the seed in its header
    if (typeof record.seed !== "string" || await sha256Hex(record.seed) !== seedCommitment) {
      throw new Failed(1, "the record's seed does not match the seed commitment");
    }
    seed = record.seed;
    verdict.checked.push("seed (not yet revealed) matches its commitment");
  }
  let sealedEvents = 0;
  for (const event of events) {
    if (own(event, "sealed")) {
      sealedEvents += 1;
      verdict.commitments += await openSealed(event.sealed, event.data, seed, event.version);
    }
  }
  if (seed === null) {
    verdict.checked.push(`open parts of ${counted(sealedEvents, "sealed event")} match the data`);
    return;
  }
  verdict.checked.push(`${counted(verdict.commitments, "commitment")} opened`);
  if (schemaOf(first) === 1) {
    verdict.checked.push("draws not re-derived: the game predates recipe 2");
    return;
  }
  for (const event of events) {
    if (event.type === "GameCreated" || event.type === "ForkedFrom" || event.type === "ActionTaken") {
      verdict.draws += await checkDraws(field(event.data, "draws"), seed, event.version);
    }
  }
  verdict.checked.push(`${counted(verdict.draws, "draw")} re-derived`);
}

// -- checking live, event by event ----------------------------------------------------------

// The chain of a game as its events arrive (in any order, with repeats): each is
// checked once the events before it are. `state` says how far it holds.
export class LiveChain {
  constructor() {
    this.verifiedTo = 0;
    this.hash = GENESIS_HASH;
    this.failure = null; // {version, reason}
    this.unhashed = false; // a schema-1 game in play shows no hashes
    this.waiting = new Map();
    this.queue = Promise.resolve();
  }

  get state() {
    return { verifiedTo: this.verifiedTo, failure: this.failure, unhashed: this.unhashed };
  }

  // Resolves to `state` once every event given so far that can be checked is.
  push(events) {
    for (const event of events) {
      if (isObject(event) && isInt(event.version) && event.version > this.verifiedTo) this.waiting.set(event.version, event);
    }
    this.queue = this.queue.then(() => this.drain());
    return this.queue.then(() => this.state);
  }

  async drain() {
    while (!this.failure && !this.unhashed && this.waiting.has(this.verifiedTo + 1)) {
      const version = this.verifiedTo + 1;
      const event = this.waiting.get(version);
      this.waiting.delete(version);
      if (schemaOf(event) === 1 && (event.hash === null || event.hash === undefined)) {
        this.unhashed = true;
        return;
      }
      const { problem, hash } = await checkEvent(event, this.hash, version);
      if (problem) {
        this.failure = { version, reason: problem };
        return;
      }
      this.hash = hash;
      this.verifiedTo = version;
    }
  }
}
