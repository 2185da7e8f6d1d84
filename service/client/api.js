// The public REST API and its event streams, the seat tokens, invites and player key
// this browser holds. Nothing here knows about the page; the other modules go through it.

export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
    this.code = this.problem.code || null;
  }
}

export function newKey() {
  if (globalThis.crypto && crypto.randomUUID) {
    try { return crypto.randomUUID(); } catch (_) { /* not a secure context */ }
  }
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function api(path, { method = "GET", body, token, headers = {}, signal } = {}) {
  const h = { Accept: "application/json, application/problem+json", ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  let payload;
  if (body !== undefined) {
    h["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, { method, headers: h, body: payload, signal, cache: "no-store" });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, { detail: "The service cannot be reached; check your connection." });
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch (_) { data = { detail: text.slice(0, 300) }; }
  }
  if (!response.ok) {
    const error = new ApiError(response.status, data);
    error.retryAfter = Number(response.headers.get("Retry-After")) || null;
    throw error;
  }
  return data;
}

// Seat tokens, kept per game in localStorage: {seat: {token, name}}.
const PREFIX = "tablestream:seats:";

export function seatsHeld(gameId) {
  try { return JSON.parse(localStorage.getItem(PREFIX + gameId) || "{}"); } catch (_) { return {}; }
}

export function keepSeat(gameId, seat, token, name) {
  const held = seatsHeld(gameId);
  held[seat] = { token, name: name || null, at: Date.now() };
  localStorage.setItem(PREFIX + gameId, JSON.stringify(held));
}

export function forgetGame(gameId) {
  localStorage.removeItem(PREFIX + gameId);
}

export function heldGames() {
  const out = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith(PREFIX)) {
      const seats = seatsHeld(key.slice(PREFIX.length));
      const at = Math.max(0, ...Object.values(seats).map((s) => s.at || 0));
      out.push({ id: key.slice(PREFIX.length), seats, at });
    }
  }
  return out.sort((a, b) => b.at - a.at);
}

// Server-Sent Events read through fetch, so a seat token or player key can travel in
// the Authorization header (EventSource cannot send one, and a key never goes in a
// URL). Each message goes to onMessage as {id, event, data}; a reconnect sends the last
// id seen as Last-Event-ID. When the server ends the stream, it is over if `endOnClose`
// (a finished game's stream), else it is opened again. A refusal of the credentials
// (401, 403) or of the request (400, 404, 422) stops it: onState("refused", status).
export function readEventStream(url, { token, lastId = null, onMessage, onState, endOnClose = true }) {
  const controller = new AbortController();
  let last = lastId;
  let stopped = false;
  let delay = 1000;

  async function once() {
    const headers = { Accept: "text/event-stream" };
    if (last !== null && last !== undefined) headers["Last-Event-ID"] = String(last);
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(url, { headers, signal: controller.signal, cache: "no-store" });
    if (!response.ok || !response.body) throw new ApiError(response.status, null);
    onState && onState("live");
    delay = 1000;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const message = { id: null, event: "message", data: [] };
        for (const line of block.split("\n")) {
          if (!line || line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          let val = colon < 0 ? "" : line.slice(colon + 1);
          if (val.startsWith(" ")) val = val.slice(1);
          if (field === "id") message.id = val;
          else if (field === "event") message.event = val;
          else if (field === "data") message.data.push(val);
        }
        if (!message.data.length) continue;
        if (message.id !== null) last = message.id;
        onMessage({ id: message.id, event: message.event, data: message.data.join("\n") });
        if (stopped) return "stopped";
      }
    }
    return "closed";
  }

  (async () => {
    while (!stopped) {
      try {
        const how = await once();
        if (how === "stopped") break;
        if (endOnClose) { onState && onState("closed"); break; }
        onState && onState("retrying");
        await new Promise((r) => setTimeout(r, delay));
      } catch (error) {
        if (stopped || error.name === "AbortError") break;
        if (error instanceof ApiError && [400, 401, 403, 404, 422].includes(error.status)) {
          onState && onState("refused", error.status);
          break;
        }
        onState && onState("retrying");
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 15000);
      }
    }
  })();

  return {
    stop() { stopped = true; controller.abort(); },
    get last() { return last; },
  };
}

// A game's live events (ids are versions; Last-Event-ID resumes), and its table chat
// (`event: chat`, no id) to onChat.
export function streamEvents(gameId, { token, after = 0, onEvent, onChat, onState }) {
  let last = after;
  const reader = readEventStream(`/v1/games/${encodeURIComponent(gameId)}/events/stream`, {
    token,
    lastId: String(after),
    onState: (s) => onState && onState(s === "refused" ? "retrying" : s),
    onMessage: ({ id, event, data }) => {
      let parsed;
      try { parsed = JSON.parse(data); } catch (_) { return; }
      if (event === "chat") { if (onChat) onChat(parsed); return; }
      if (id !== null) last = Math.max(last, Number(id) || 0);
      onEvent(parsed);
    },
  });
  return {
    stop() { reader.stop(); },
    get last() { return last; },
  };
}

// The player this browser is signed in as: {id, name, created_at, key}, kept in
// localStorage (the service shows a key once and keeps only its hash). Changes are
// announced on window as "tablestream:player".
const PLAYER = "tablestream:player";

export function currentPlayer() {
  try {
    const p = JSON.parse(localStorage.getItem(PLAYER) || "null");
    return p && p.key && p.name ? p : null;
  } catch (_) { return null; }
}

export function keepPlayer(player) {
  localStorage.setItem(PLAYER, JSON.stringify({ id: player.id, name: player.name, created_at: player.created_at, key: player.key }));
  window.dispatchEvent(new CustomEvent("tablestream:player"));
}

export function forgetPlayer() {
  const p = currentPlayer();
  localStorage.removeItem(PLAYER);
  if (p) localStorage.removeItem(`tablestream:notices:${p.id}`);
  window.dispatchEvent(new CustomEvent("tablestream:player"));
}

export function playerKey() {
  return currentPlayer()?.key || null;
}

// The game kinds, asked once per page.
let kindsPromise = null;
export function kindsList() {
  if (!kindsPromise) kindsPromise = api("/v1/kinds").then((r) => r.kinds).catch((e) => { kindsPromise = null; throw e; });
  return kindsPromise;
}

// A kind's one name, the registry's title, so the lobby, the table, the replay and the
// page title never call one game by two names; the key stands in if the list is unreachable.
export async function kindTitle(key) {
  try {
    return (await kindsList()).find((k) => k.key === key)?.title || key;
  } catch {
    return key;
  }
}

// What a created game's answer hands out once: the seats' tokens and invite codes, kept in
// this browser. Returns the seat this browser plays (by token, or as the signed-in player).
export function keepCreated(game, me = currentPlayer()) {
  let mine = null;
  for (const s of game.seats) {
    if (typeof s.invite === "string") keepInvite(game.id, s.seat, s.invite);
    if (s.token) { keepSeat(game.id, s.seat, s.token, s.name); if (mine === null) mine = s.seat; }
    if (me && s.player === me.id && mine === null) mine = s.seat;
  }
  return mine;
}

// Invite codes this browser created, per game: {seat: code}. The service shows a code
// once, in the answer that creates the game.
const INVITES = "tablestream:invites:";

export function invitesOf(gameId) {
  try { return JSON.parse(localStorage.getItem(INVITES + gameId) || "{}"); } catch (_) { return {}; }
}

export function keepInvite(gameId, seat, code) {
  const held = invitesOf(gameId);
  held[seat] = code;
  localStorage.setItem(INVITES + gameId, JSON.stringify(held));
}

export function inviteLink(gameId, seat, code) {
  return `${location.origin}${location.pathname}#/join/${encodeURIComponent(gameId)}/${seat}/${encodeURIComponent(code)}`;
}

// An invite as pasted: the whole link, or "game/seat/code".
export function parseInvite(text) {
  const raw = String(text || "").trim();
  const tail = raw.includes("#/join/") ? raw.split("#/join/")[1] : raw.replace(/^\/+/, "");
  const parts = tail.split("/").map((p) => { try { return decodeURIComponent(p); } catch (_) { return p; } });
  if (parts.length !== 3 || !parts[0] || !/^\d+$/.test(parts[1]) || !parts[2]) return null;
  return { game: parts[0], seat: Number(parts[1]), code: parts[2] };
}

// Take an open seat: with the player key when signed in (the seat is the player's), else
// by name (this browser keeps the seat token). An invite code goes along when given.
export async function takeSeat(gameId, seat, { name = null, invite = null } = {}) {
  const me = currentPlayer();
  const body = {};
  if (invite) body.invite = invite;
  if (!me) body.name = name;
  const joined = await api(`/v1/games/${encodeURIComponent(gameId)}/seats/${seat}/join`, { method: "POST", body, token: me?.key });
  if (joined.token) keepSeat(gameId, joined.seat, joined.token, name);
  return joined;
}
