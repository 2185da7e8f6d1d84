// A verifier of tablestream games that needs nothing of the service: it follows
// docs/verification.md alone, with SHA-256, HMAC-SHA256, SHA-512, Ed25519 and
// JSON.parse. It is the same verifier as service/verifier.py (the command `tablestream
// verify`), check for check and word for word, so the two give the same verdict on the
// same record.
//
// Hashing goes through crypto.subtle where the page has it (a secure context); else
// through the small SHA-256 and SHA-512 written out below. Every check is therefore
// async. Ed25519 (the ledger's signed checkpoints) is written out below in BigInt.

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

// SHA-512 (FIPS 180-4, 6.4), for Ed25519 where crypto.subtle is missing: 64-bit words
// as BigInt, slow beside subtle but quick enough for the few short messages signed.
const MASK64 = (1n << 64n) - 1n;
const K512 = [
  0x428a2f98d728ae22n, 0x7137449123ef65cdn, 0xb5c0fbcfec4d3b2fn, 0xe9b5dba58189dbbcn,
  0x3956c25bf348b538n, 0x59f111f1b605d019n, 0x923f82a4af194f9bn, 0xab1c5ed5da6d8118n,
  0xd807aa98a3030242n, 0x12835b0145706fben, 0x243185be4ee4b28cn, 0x550c7dc3d5ffb4e2n,
  0x72be5d74f27b896fn, 0x80deb1fe3b1696b1n, 0x9bdc06a725c71235n, 0xc19bf174cf692694n,
  0xe49b69c19ef14ad2n, 0xefbe4786384f25e3n, 0x0fc19dc68b8cd5b5n, 0x240ca1cc77ac9c65n,
  0x2de92c6f592b0275n, 0x4a7484aa6ea6e483n, 0x5cb0a9dcbd41fbd4n, 0x76f988da831153b5n,
  0x983e5152ee66dfabn, 0xa831c66d2db43210n, 0xb00327c898fb213fn, 0xbf597fc7beef0ee4n,
  0xc6e00bf33da88fc2n, 0xd5a79147930aa725n, 0x06ca6351e003826fn, 0x142929670a0e6e70n,
  0x27b70a8546d22ffcn, 0x2e1b21385c26c926n, 0x4d2c6dfc5ac42aedn, 0x53380d139d95b3dfn,
  0x650a73548baf63den, 0x766a0abb3c77b2a8n, 0x81c2c92e47edaee6n, 0x92722c851482353bn,
  0xa2bfe8a14cf10364n, 0xa81a664bbc423001n, 0xc24b8b70d0f89791n, 0xc76c51a30654be30n,
  0xd192e819d6ef5218n, 0xd69906245565a910n, 0xf40e35855771202an, 0x106aa07032bbd1b8n,
  0x19a4c116b8d2d0c8n, 0x1e376c085141ab53n, 0x2748774cdf8eeb99n, 0x34b0bcb5e19b48a8n,
  0x391c0cb3c5c95a63n, 0x4ed8aa4ae3418acbn, 0x5b9cca4f7763e373n, 0x682e6ff3d6b2b8a3n,
  0x748f82ee5defb2fcn, 0x78a5636f43172f60n, 0x84c87814a1f0ab72n, 0x8cc702081a6439ecn,
  0x90befffa23631e28n, 0xa4506cebde82bde9n, 0xbef9a3f7b2c67915n, 0xc67178f2e372532bn,
  0xca273eceea26619cn, 0xd186b8c721c0c207n, 0xeada7dd6cde0eb1en, 0xf57d4f7fee6ed178n,
  0x06f067aa72176fban, 0x0a637dc5a2c898a6n, 0x113f9804bef90daen, 0x1b710b35131c471bn,
  0x28db77f523047d84n, 0x32caab7b40c72493n, 0x3c9ebe0a15c9bebcn, 0x431d67c49c100d4cn,
  0x4cc5d4becb3e42b6n, 0x597f299cfc657e2an, 0x5fcb6fab3ad6faecn, 0x6c44198c4a475817n,
];
const H512 = [
  0x6a09e667f3bcc908n, 0xbb67ae8584caa73bn, 0x3c6ef372fe94f82bn, 0xa54ff53a5f1d36f1n,
  0x510e527fade682d1n, 0x9b05688c2b3e6c1fn, 0x1f83d9abfb41bd6bn, 0x5be0cd19137e2179n,
];

const rotr64 = (x, n) => ((x >> n) | (x << (64n - n))) & MASK64;

export function sha512Pure(bytes) {
  const length = bytes.length;
  const total = Math.ceil((length + 17) / 128) * 128;
  const block = new Uint8Array(total);
  block.set(bytes);
  block[length] = 0x80;
  const view = new DataView(block.buffer);
  view.setBigUint64(total - 8, BigInt(length) * 8n);
  const h = H512.slice();
  const w = new Array(80);
  for (let offset = 0; offset < total; offset += 128) {
    for (let i = 0; i < 16; i += 1) w[i] = view.getBigUint64(offset + 8 * i);
    for (let i = 16; i < 80; i += 1) {
      const s0 = rotr64(w[i - 15], 1n) ^ rotr64(w[i - 15], 8n) ^ (w[i - 15] >> 7n);
      const s1 = rotr64(w[i - 2], 19n) ^ rotr64(w[i - 2], 61n) ^ (w[i - 2] >> 6n);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) & MASK64;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 80; i += 1) {
      const choice = (e & f) ^ ((e ^ MASK64) & g);
      const t1 = (hh + (rotr64(e, 14n) ^ rotr64(e, 18n) ^ rotr64(e, 41n)) + choice + K512[i] + w[i]) & MASK64;
      const t2 = ((rotr64(a, 28n) ^ rotr64(a, 34n) ^ rotr64(a, 39n)) + ((a & b) ^ (a & c) ^ (b & c))) & MASK64;
      hh = g; g = f; f = e; e = (d + t1) & MASK64;
      d = c; c = b; b = a; a = (t1 + t2) & MASK64;
    }
    const sums = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i += 1) h[i] = (h[i] + sums[i]) & MASK64;
  }
  const out = new Uint8Array(64);
  const outView = new DataView(out.buffer);
  h.forEach((word, i) => outView.setBigUint64(8 * i, word));
  return out;
}

let subtle = globalThis.crypto?.subtle || null;
const hmacKeys = new Map();

// Tests force the pure SHA-256 and SHA-512 with usePureHashing(true); pages never need to.
export function usePureHashing(pure) {
  subtle = pure ? null : globalThis.crypto?.subtle || null;
  hmacKeys.clear();
}

async function sha256(bytes) {
  if (!subtle) return sha256Pure(bytes);
  return new Uint8Array(await subtle.digest("SHA-256", bytes));
}

async function sha512(bytes) {
  if (!subtle) return sha512Pure(bytes);
  return new Uint8Array(await subtle.digest("SHA-512", bytes));
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

// The value at `path` (object keys as text, list indexes as whole numbers), if any.
function located(value, path) {
  for (const part of path) {
    if (!holds(value, part)) return { found: false, value: null };
    value = value[part];
  }
  return { found: true, value };
}

function holds(value, part) {
  if (isObject(value)) return typeof part === "string" && own(value, part);
  return Array.isArray(value) && isInt(part) && part >= 0 && part < value.length;
}

// Section 3's openings: each salt a seat is given must open the commitment at its
// path to the value the seat is shown there; throws Failed, else the number opened.
export async function checkOpenings(event) {
  if (!own(event, "openings")) return 0;
  const version = event.version;
  const openings = event.openings;
  if (!Array.isArray(openings)) throw new Failed(version, "the event's openings are not a list");
  const named = new Set();
  for (const opening of openings) {
    if (
      !isObject(opening)
      || Object.keys(opening).length !== 2 || !own(opening, "path") || !own(opening, "salt")
      || !Array.isArray(opening.path)
      || !opening.path.every((p) => typeof p === "string" || isInt(p))
      || typeof opening.salt !== "string"
      || !HEX64.test(opening.salt)
    ) {
      throw new Failed(version, "an opening is not a path and a salt of 64 hex digits");
    }
    const path = opening.path;
    const where = spell(path);
    if (named.has(canonicalJson(path))) throw new Failed(version, `two openings name ${where}`);
    named.add(canonicalJson(path));
    const sealed = located(own(event, "sealed") ? event.sealed : null, path);
    if (!sealed.found || !isCommitment(sealed.value)) {
      throw new Failed(version, `the opening of ${where} names no commitment in the sealed form`);
    }
    const shown = located(event.data, path);
    if (!shown.found) throw new Failed(version, `the opening of ${where} names a value the data does not show`);
    if (await commitment(fromHex(opening.salt), shown.value) !== sealed.value[COMMIT]) {
      throw new Failed(version, `the value at ${where} does not match its commitment under the salt given`);
    }
  }
  return openings.length;
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
    ledger_proof: field(raw, "ledger_proof"),
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
    ledger_proof: field(header, "ledger_proof"),
  };
}

// -- the checks of section 7, in order --------------------------------------------------------

const counted = (number, noun) => `${number} ${noun}${number === 1 ? "" : "s"}`;
const entries = (number) => `${number} entr${BigInt(number) === 1n ? "y" : "ies"}`;
const given = (value) => value !== null && value !== undefined;

// Check a record (from parseRecord or recordFromReplay, or a replay object as served)
// as docs/verification.md section 7 says. `expectedHead` is a {version, hash} a client
// kept, which the log must still reach and hold; `logKey` the log's verifier key
// (`<name>+<id>+<key>`), which every checkpoint must be signed with (a malformed one
// throws); `latest` what the server (or a witness) says now, {checkpoint, consistency,
// entry, inclusion} as service/verifier.py's Latest, null for a part it did not give.
// Resolves to the verdict:
// {ok, first_bad_version, reason, game, kind, events, over, commitments, draws, checked}.
export async function verifyRecord(record, { expectedHead = null, logKey = null, latest = null } = {}) {
  if (!own(record, "has_outcome")) record = recordFromReplay(record);
  if (expectedHead && !(isInt(expectedHead.version) && expectedHead.version >= 1)) throw new TypeError("a head's version is 1 or more");
  await logKeyOf(logKey); // a malformed key is the caller's error, whatever the record holds
  const verdict = {
    ok: true, first_bad_version: null, reason: null, game: record.game, kind: record.kind,
    events: record.events.length, over: false, commitments: 0, draws: 0, checked: [],
  };
  try {
    await runChecks(record, expectedHead, verdict, logKey, latest);
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

async function runChecks(record, expectedHead, verdict, logKey, latest) {
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
  // 5. the ledger's transparency log: the entry in a signed tree, and what the server says now
  let note = null;
  if (given(record.ledger) && (given(record.ledger_proof) || given(logKey))) {
    note = await checkLedgerProof(record, last, logKey, verdict);
  }
  if (given(latest)) await checkLatest(record, last, lastHash, logKey, latest, note, verdict);
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

// The record's ledger entry (or `entry`, the server's, named `label`) is a valid entry
// for this game and holds the log's final head.
async function checkLedger(record, last, lastHash, entry = record.ledger, label = "the ledger entry") {
  if (!isObject(entry) || Object.entries(LEDGER_FIELDS).some(([name, kind]) => !isKind[kind](entry[name]) || !own(entry, name))
      || plainProblem(entry) !== null) {
    throw new Failed(last, `${label} is not a valid entry`);
  }
  if (entry.index < 1 || (entry.index === 1 && entry.prev !== GENESIS_HASH)) {
    throw new Failed(last, `${label} does not follow the entry before it`);
  }
  if (await ledgerEntryHash(entry) !== entry.entry_hash) throw new Failed(last, `${label} does not match its entry hash`);
  if (record.game !== null && entry.game !== record.game) throw new Failed(last, `${label} is for game ${entry.game}, not this one`);
  if (record.kind !== null && entry.kind !== record.kind) {
    throw new Failed(last, `${label} is for a game of kind ${entry.kind}, not ${record.kind}`);
  }
  const anchor = label === "the ledger entry" ? "its ledger entry" : label;
  checkAnchor({ version: entry.version, hash: entry.hash }, last, lastHash, anchor);
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
  let opened = 0;
  for (const event of events) {
    if (own(event, "sealed")) {
      sealedEvents += 1;
      verdict.commitments += await openSealed(event.sealed, event.data, seed, event.version);
    }
    opened += await checkOpenings(event);
  }
  if (seed === null) verdict.checked.push(`open parts of ${counted(sealedEvents, "sealed event")} match the data`);
  if (opened) verdict.checked.push(`${counted(opened, "hidden value")} shown to this seat opened with the salts given`);
  if (seed === null) return;
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

// -- section 6: the ledger's transparency log -----------------------------------------------

const HEX64 = /^[0-9a-f]{64}$/;
const SIZE = /^(?:[1-9][0-9]{0,15}|0)$/;
const SIGNATURE_LINE = /^\u2014 ([^ ]+) ([A-Za-z0-9+/=]+)$/;
// Python's whitespace (str.isspace, the `\s` of its regexes), which is not JavaScript's:
// it has U+001C to U+001F and U+0085, and not U+FEFF.
const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g");
const VKEY = new RegExp(`^([^+${PY_SPACE}]+)\\+([0-9a-f]{8})\\+([A-Za-z0-9+/=]+)$`);
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

const fromHex = (text) => Uint8Array.from(text.match(/../g) || [], (pair) => parseInt(pair, 16));

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

function joinBytes(...parts) {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

// Base64 as Python's base64.b64decode(text, validate=True) reads it (binascii's strict
// mode): the alphabet only, no '=' first, '=' only to complete the last group of four and
// nothing after that; the bits left over in the last byte are ignored. Null where Python
// raises, so both verifiers refuse the same checkpoints and keys.
function base64Strict(text) {
  if (typeof text !== "string" || text.startsWith("=")) return null;
  const out = [];
  let quad = 0;
  let left = 0;
  let pads = 0;
  let padding = false;
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === "=") {
      padding = true;
      // Padding counts only once two characters of a group are in; it ends the input.
      if (quad >= 2) {
        pads += 1;
        if (quad + pads >= 4) return i + 1 < text.length ? null : Uint8Array.from(out);
      }
      continue;
    }
    const value = BASE64.indexOf(text[i]);
    if (value < 0 || padding) return null;
    if (quad === 1) out.push(((left << 2) | (value >> 4)) & 0xff);
    else if (quad === 2) out.push(((left << 4) | (value >> 2)) & 0xff);
    else if (quad === 3) out.push(((left << 6) | value) & 0xff);
    left = value & [0x3f, 0x0f, 0x03, 0x00][quad];
    quad = (quad + 1) % 4;
  }
  return quad === 0 ? Uint8Array.from(out) : null;
}

// The UTF-8 of text that must be valid Unicode: Python's str.encode raises on a lone
// surrogate where TextEncoder would put U+FFFD, so this throws (no verdict) as it does.
function strictUtf8(text) {
  if (LONE_SURROGATE.test(text)) throw new TypeError("the text is not valid Unicode");
  return utf8(text);
}

// A C2SP signed checkpoint: origin, size and base64 root, a blank line, then signature
// lines `— <name> <base64>`: {origin, size (a BigInt: up to 16 digits), root, text (what
// the signatures cover), signatures: [[name, key id || signature]]}; null when it is not one.
export function parseNote(note) {
  if (typeof note !== "string" || !note.includes("\n\n") || !note.endsWith("\n") || LONE_SURROGATE.test(note)) return null;
  const split = note.indexOf("\n\n");
  const body = note.slice(0, split);
  const rest = note.slice(split + 2);
  const lines = body.split("\n");
  if (lines.length < 3 || !lines[0] || !SIZE.test(lines[1]) || BigInt(lines[1]) > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const root = base64Strict(lines[2]);
  if (root === null || root.length !== 32) return null;
  const signatures = [];
  for (const line of rest.slice(0, -1).split("\n")) {
    const found = SIGNATURE_LINE.exec(line);
    const stamp = found && base64Strict(found[2]);
    if (!stamp) return null;
    signatures.push([found[1], stamp]);
  }
  return { origin: lines[0], size: BigInt(lines[1]), root, text: `${body}\n`, signatures };
}

// `<name>+<key id, 8 hex>+<base64(0x01 || 32-byte Ed25519 key)>` as {name, keyId, key}, or null.
export async function parseVkey(text) {
  if (typeof text !== "string") return null;
  const found = VKEY.exec(text.replace(PY_STRIP, ""));
  const raw = found && base64Strict(found[3]);
  if (!raw || raw.length !== 33 || raw[0] !== 1) return null;
  const name = found[1];
  const keyId = fromHex(found[2]);
  const digest = await sha256(joinBytes(strictUtf8(name), utf8("\n"), raw));
  if (!sameBytes(digest.subarray(0, 4), keyId)) return null;
  return { name, keyId, key: raw.subarray(1) };
}

export async function signedBy(note, vkey) {
  for (const [signer, stamp] of note.signatures) {
    if (signer === vkey.name && stamp.length === 68 && sameBytes(stamp.subarray(0, 4), vkey.keyId)
        && await ed25519Verify(vkey.key, strictUtf8(note.text), stamp.subarray(4))) {
      return true;
    }
  }
  return false;
}

export async function ledgerLeafHash(entry) {
  const body = Object.fromEntries(LEDGER_HASHED.map((name) => [name, entry[name]]));
  return sha256(joinBytes(Uint8Array.of(0), utf8(canonicalJson(body))));
}

const treeNode = async (left, right) => sha256(joinBytes(Uint8Array.of(1), left, right));

// RFC 9162 2.1.3.2: leaf `index` (from 0) of a tree of `size` with `root`. Sizes and
// indexes are BigInt: a checkpoint's size may pass 2**53, and JavaScript's bit
// operators stop at 32 bits.
export async function inclusionOk(leaf, index, size, path, root) {
  if (!(index >= 0n && index < size)) return false;
  let fn = index;
  let sn = size - 1n;
  let r = leaf;
  for (const p of path) {
    if (sn === 0n) return false;
    if (fn & 1n || fn === sn) {
      r = await treeNode(p, r);
      while (fn && !(fn & 1n)) {
        fn >>= 1n;
        sn >>= 1n;
      }
    } else {
      r = await treeNode(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n && sameBytes(r, root);
}

// RFC 9162 2.1.4.2; the same size proves with no hashes and the same root.
export async function consistencyOk(first, second, firstRoot, secondRoot, proof) {
  if (!(first > 0n && first <= second)) return false;
  if (first === second) return proof.length === 0 && sameBytes(firstRoot, secondRoot);
  const path = [...((first & (first - 1n)) === 0n ? [firstRoot] : []), ...proof];
  if (!path.length) return false;
  let fn = first - 1n;
  let sn = second - 1n;
  while (fn & 1n) {
    fn >>= 1n;
    sn >>= 1n;
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0n) return false;
    if (fn & 1n || fn === sn) {
      fr = await treeNode(c, fr);
      sr = await treeNode(c, sr);
      while (fn && !(fn & 1n)) {
        fn >>= 1n;
        sn >>= 1n;
      }
    } else {
      sr = await treeNode(sr, c);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n && sameBytes(fr, firstRoot) && sameBytes(sr, secondRoot);
}

// A list of hex hashes as bytes, or null.
function hashesOf(value) {
  if (!Array.isArray(value) || !value.every((h) => typeof h === "string" && HEX64.test(h))) return null;
  return value.map(fromHex);
}

// Python's `value == whole` for a JSON value: true and false are 1 and 0 there.
// A JSON whole number (not a boolean) equal to ``whole``.
function equalsWhole(value, whole) {
  return Number.isSafeInteger(value) && BigInt(value) === whole;
}

// The log key as {name, keyId, key}, or null when none is given; a malformed one is the
// caller's mistake, not the record's, and throws.
async function logKeyOf(logKey) {
  if (!given(logKey)) return null;
  const vkey = await parseVkey(logKey);
  if (vkey === null) throw new TypeError("a log key is <name>+<key id>+<base64 key>");
  return vkey;
}

// The ledger entry is in the tree a checkpoint names, signed by the log's key when it
// is known: section 6. Returns the record's checkpoint.
async function checkLedgerProof(record, last, logKey, verdict) {
  const entry = record.ledger;
  const proof = record.ledger_proof;
  const index = entry.index;
  if (!given(proof)) throw new Failed(last, "the record carries no proof that its ledger entry is in the ledger's tree");
  const note = isObject(proof) ? parseNote(field(proof, "checkpoint")) : null;
  const hashes = isObject(proof) ? hashesOf(field(proof, "hashes")) : null;
  if (note === null || hashes === null || !equalsWhole(field(proof, "tree_size"), note.size)) {
    throw new Failed(last, "the ledger proof is not a checkpoint with an inclusion proof");
  }
  const vkey = await logKeyOf(logKey);
  if (vkey !== null) {
    if (note.origin !== vkey.name || !await signedBy(note, vkey)) {
      throw new Failed(last, "the record's checkpoint is not signed by the log's key");
    }
    verdict.checked.push(`checkpoint of ${entries(note.size)} signed by ${vkey.name}`);
  } else {
    verdict.checked.push("checkpoint signature not checked: no log key given");
  }
  if (!await inclusionOk(await ledgerLeafHash(entry), BigInt(index) - 1n, note.size, hashes, note.root)) {
    throw new Failed(last, `ledger entry ${index} is not in the tree its checkpoint names`);
  }
  verdict.checked.push(`ledger entry ${index} included in the checkpoint of ${entries(note.size)}`);
  return note;
}

// Against what the server says now: its latest checkpoint extends the record's, and
// when the game is on its ledger, the log reaches the head that entry holds.
async function checkLatest(record, last, lastHash, logKey, latest, note, verdict) {
  const later = parseNote(latest.checkpoint);
  if (later === null) throw new Failed(last, "the server's checkpoint is not a checkpoint");
  const vkey = await logKeyOf(logKey);
  if (vkey !== null && (later.origin !== vkey.name || !await signedBy(later, vkey))) {
    throw new Failed(last, "the server's checkpoint is not signed by the log's key");
  }
  if (given(latest.entry)) {
    const index = await checkLedger(record, last, lastHash, latest.entry, "the server's ledger entry");
    const hashes = hashesOf(latest.inclusion);
    const leaf = await ledgerLeafHash(latest.entry);
    if (hashes === null || !await inclusionOk(leaf, BigInt(index) - 1n, later.size, hashes, later.root)) {
      throw new Failed(last, `the server's ledger entry ${index} is not in the tree its checkpoint names`);
    }
    verdict.checked.push(`the server's ledger entry ${index} holds this game's final head`);
  }
  if (note !== null) {
    const extension = hashesOf(latest.consistency);
    if (later.origin !== note.origin || extension === null
        || !await consistencyOk(note.size, later.size, note.root, later.root, extension)) {
      throw new Failed(
        last,
        `the server's latest checkpoint (${entries(later.size)}) does not extend the record's `
          + `(${entries(note.size)}): the ledger was rewritten or forked`,
      );
    }
    verdict.checked.push(`the server's latest checkpoint (${entries(later.size)}) extends the record's`);
  } else {
    verdict.checked.push(`the server's latest checkpoint has ${entries(later.size)}`);
  }
}

// -- Ed25519 signature verification (RFC 8032, section 5.1.7), in BigInt --------------------

const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

// The representative in [0, P): JavaScript's % keeps the dividend's sign.
function modP(value) {
  const r = value % P;
  return r < 0n ? r + P : r;
}

function powP(base, exponent) {
  let out = 1n;
  base = modP(base);
  while (exponent > 0n) {
    if (exponent & 1n) out = (out * base) % P;
    base = (base * base) % P;
    exponent >>= 1n;
  }
  return out;
}

const D = modP(-121665n * powP(121666n, P - 2n));
const SQRT_M1 = powP(2n, (P - 1n) / 4n);

// Points in extended coordinates [X, Y, Z, T]: x = X/Z, y = Y/Z, xy = T/Z. The addition
// (a = -1) is complete on the curve, so it doubles too.
function addPoints([x1, y1, z1, t1], [x2, y2, z2, t2]) {
  const p1 = modP((y1 - x1) * (y2 - x2));
  const p2 = modP((y1 + x1) * (y2 + x2));
  const c = modP(2n * t1 * t2 * D);
  const zz = modP(2n * z1 * z2);
  const e = p2 - p1;
  const f = zz - c;
  const g = zz + c;
  const h = p2 + p1;
  return [modP(e * f), modP(g * h), modP(f * g), modP(e * h)];
}

function times(scalar, point) {
  let out = [0n, 1n, 1n, 0n];
  while (scalar) {
    if (scalar & 1n) out = addPoints(out, point);
    point = addPoints(point, point);
    scalar >>= 1n;
  }
  return out;
}

// The x with the given parity on the curve at y, or null (y not canonical, no such x).
function xOf(y, odd) {
  if (y >= P) return null;
  const xx = modP((y * y - 1n) * powP(D * y * y + 1n, P - 2n));
  if (xx === 0n) return odd ? null : 0n;
  let x = powP(xx, (P + 3n) / 8n);
  if (modP(x * x - xx) !== 0n) x = (x * SQRT_M1) % P;
  if (modP(x * x - xx) !== 0n) return null;
  return (x & 1n) !== odd ? P - x : x;
}

const littleEndian = (bytes) => bytes.reduceRight((value, byte) => (value << 8n) | BigInt(byte), 0n);

function pointOf(encoded) {
  const whole = littleEndian(encoded);
  const y = whole & ((1n << 255n) - 1n);
  const x = xOf(y, whole >> 255n);
  return x === null ? null : [x, y, 1n, modP(x * y)];
}

const BASE_Y = modP(4n * powP(5n, P - 2n));
const BASE = [xOf(BASE_Y, 0n), BASE_Y, 1n, modP(xOf(BASE_Y, 0n) * BASE_Y)];

// Whether `signature` is `publicKey`'s over `message` (bytes all): [S]B = R + [k]A.
export async function ed25519Verify(publicKey, message, signature) {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  const a = pointOf(publicKey);
  const r = pointOf(signature.subarray(0, 32));
  const s = littleEndian(signature.subarray(32));
  if (a === null || r === null || s >= L) return false;
  const k = littleEndian(await sha512(joinBytes(signature.subarray(0, 32), publicKey, message))) % L;
  const left = times(s, BASE);
  const right = addPoints(r, times(k, a));
  return modP(left[0] * right[2] - right[0] * left[2]) === 0n && modP(left[1] * right[2] - right[1] * left[2]) === 0n;
}

// -- checking live, event by event ----------------------------------------------------------

// The chain of a game as its events arrive (in any order, with repeats): each is
// checked once the events before it are, and so are the openings a seat is given of its
// own hidden values (section 3). `state` says how far it holds.
export class LiveChain {
  constructor() {
    this.verifiedTo = 0;
    this.hash = GENESIS_HASH;
    this.failure = null; // {version, reason}
    this.unhashed = false; // a schema-1 game in play shows no hashes
    this.opened = 0; // the seat's hidden values that matched their commitments
    this.waiting = new Map();
    this.queue = Promise.resolve();
  }

  get state() {
    return { verifiedTo: this.verifiedTo, failure: this.failure, unhashed: this.unhashed, opened: this.opened };
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
      try {
        this.opened += await checkOpenings(event);
      } catch (error) {
        if (!(error instanceof Failed)) throw error;
        this.failure = { version, reason: error.reason };
        return;
      }
      this.hash = hash;
      this.verifiedTo = version;
    }
  }
}
