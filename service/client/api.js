// The public REST API and its event stream, and the seat tokens this browser holds.
// Nothing here knows about the page; every other module goes through these calls.

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
  if (!response.ok) throw new ApiError(response.status, data);
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

// Server-Sent Events read through fetch, so the seat token can travel in the
// Authorization header (EventSource cannot send one). Reconnects with
// Last-Event-ID until stopped or the server closes the stream of a finished game.
export function streamEvents(gameId, { token, after = 0, onEvent, onState }) {
  const controller = new AbortController();
  let last = after;
  let stopped = false;
  let delay = 1000;

  async function once() {
    const headers = { Accept: "text/event-stream", "Last-Event-ID": String(last) };
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/events/stream`, {
      headers, signal: controller.signal, cache: "no-store",
    });
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
        let event;
        try { event = JSON.parse(message.data.join("\n")); } catch (_) { continue; }
        if (message.id !== null) last = Math.max(last, Number(message.id) || 0);
        onEvent(event);
      }
    }
    return "closed";
  }

  (async () => {
    while (!stopped) {
      try {
        const how = await once();
        if (how === "closed") { onState && onState("closed"); break; }
      } catch (error) {
        if (stopped || error.name === "AbortError") break;
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
