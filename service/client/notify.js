// Notifications: the signed-in player's live stream (GET /v1/players/me/stream, read
// with fetch so that the key travels in the Authorization header, resumed with
// Last-Event-ID), kept per player in localStorage and shown under the bell in the
// header. Every notice is also announced on window as "tablestream:notice", so that an
// open table or list can redraw at once.

import { currentPlayer, forgetPlayer, kindsList, readEventStream } from "./api.js";
import { clear, el, humanize, svg, toast } from "./dom.js";

const KEEP = 40;
const BELL = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1z"/></svg>';
const STORE = "tablestream:notices:";

let stream = null;
let streamKey = null;
let state = { cursor: null, items: [] };
let titles = {};
let liveState = "off";
// Made by startNotices, so that the module loads without a page (node imports replay.js).
let bell = null;
let panel = null;

function load(player) {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE + player.id) || "null");
    state = saved && Array.isArray(saved.items) ? saved : { cursor: null, items: [] };
  } catch (_) { state = { cursor: null, items: [] }; }
}

function save(player) {
  state.items = state.items.slice(0, KEEP);
  localStorage.setItem(STORE + player.id, JSON.stringify(state));
}

function keyOf(n) {
  if (n.type === "chat") return `chat:${n.message?.id}`;
  if (n.type === "rematch_offered") return `rematch_offered:${n.game}:${n.by}`;
  if (n.type === "seek_filled") return `seek_filled:${n.seek}`;
  return `${n.type}:${n.game}:${n.version}:${n.seat}`;
}

const title = (kind) => titles[kind] || humanize(kind || "game");

export function noticeText(n) {
  const game = title(n.kind);
  switch (n.type) {
    case "seated": return `You have a seat in a ${game} game.`;
    case "seat_filled": return `A seat was filled in your ${game} game.`;
    case "game_started": return `Your ${game} game has started.`;
    case "your_turn": return `Your turn in ${game}.`;
    case "undo_requested": return `Seat ${Number(n.by) + 1} asks to undo in ${game}.`;
    case "game_ended": {
      const won = n.outcome?.winners?.includes(n.seat);
      return `Your ${game} game is over${n.outcome ? (won ? ": you won." : ": you did not win.") : "."}`;
    }
    case "rematch_offered": return `A rematch of your ${game} game is offered.`;
    case "seek_filled": return `Your seek found a ${game} game: you sit at seat ${Number(n.seat) + 1}.`;
    case "draw_offered": return `Seat ${Number(n.by) + 1} offers to end your ${game} game with a shared result.`;
    case "chat": {
      const from = n.message?.from?.name || (n.message?.from?.seat !== null && n.message?.from?.seat !== undefined ? `Seat ${n.message.from.seat + 1}` : "someone");
      return `${from} in ${game}: ${n.message?.text ?? ""}`;
    }
    default: return `${humanize(n.type)} in ${game}.`;
  }
}

function unread() {
  return state.items.filter((n) => !n.read).length;
}

function drawBell() {
  const player = currentPlayer();
  bell.hidden = !player;
  const count = unread();
  clear(bell).append(svg(BELL, "bell-icon"), el("span", { class: ["badge", count ? "has" : null], "data-testid": "unread" }, String(count)));
  bell.setAttribute("aria-label", `notifications: ${count} unread${liveState === "live" ? "" : ` (${liveState})`}`);
  bell.title = liveState === "live" ? "Notifications (live)" : `Notifications (${liveState})`;
  bell.classList.toggle("offline", liveState !== "live");
}

function noticeItem(n) {
  return el("li", { class: ["notice", `notice-${n.type}`, n.read ? null : "unread"], "data-type": n.type, "data-game": n.game, "data-version": n.version ?? "" },
    el("a", { href: `#/game/${encodeURIComponent(n.game)}` }, noticeText(n)), " ",
    el("small", { class: "muted" }, new Date(n.received).toLocaleTimeString()));
}

export function noticeList(limit = KEEP) {
  const items = state.items.slice(0, limit);
  if (!items.length) return el("p", { class: "muted", "data-testid": "no-notices" }, "Nothing yet: your turns, started and finished games, rematches and chat at your tables arrive here.");
  return el("ul", { class: "notices" }, items.map(noticeItem));
}

function drawPanel() {
  const player = currentPlayer();
  clear(panel).append(el("h3", {}, "Notifications"),
    el("p", { class: "muted small" }, player ? `From ${player.name}'s live stream (${liveState}).` : "Sign in to get notifications."),
    noticeList());
}

function markRead() {
  const player = currentPlayer();
  if (!player) return;
  let changed = false;
  for (const n of state.items) if (!n.read) { n.read = true; changed = true; }
  if (changed) save(player);
}

function redraw() {
  drawBell();
  drawPanel();
  window.dispatchEvent(new CustomEvent("tablestream:notices-drawn"));
}

function receive(player, id, event, data) {
  if (id) state.cursor = id;
  if (event === "key_revoked") {
    if (currentPlayer()?.key === streamKey) {
      toast("Your player key was rotated or revoked elsewhere: sign in again with the new key.", "error");
      forgetPlayer();
    }
    return;
  }
  let n;
  try { n = JSON.parse(data); } catch (_) { return; }
  if (!n || typeof n !== "object") return;
  n.type = n.type || event;
  const key = keyOf(n);
  const mine = n.type === "chat" && n.message?.from?.player === player.id;
  if (!mine && !state.items.some((it) => it.key === key)) {
    state.items.unshift({ ...n, key, received: Date.now(), read: !panel.hidden });
    if (n.type !== "chat" && !location.hash.includes(n.game)) toast(noticeText(n));
  }
  save(player);
  window.dispatchEvent(new CustomEvent("tablestream:notice", { detail: n }));
  redraw();
}

function restart() {
  if (stream) { stream.stop(); stream = null; }
  const player = currentPlayer();
  streamKey = player?.key || null;
  if (!player) { state = { cursor: null, items: [] }; liveState = "off"; panel.hidden = true; redraw(); return; }
  load(player);
  liveState = "connecting";
  redraw();
  stream = readEventStream("/v1/players/me/stream", {
    token: player.key,
    lastId: state.cursor,
    endOnClose: false,
    onMessage: ({ id, event, data }) => receive(player, id, event, data),
    onState: (s, status) => {
      liveState = s === "refused" ? "refused" : s;
      if (s === "refused" && status === 401 && currentPlayer()?.key === player.key) {
        toast("This browser's player key is no longer valid: sign in again.", "error");
        forgetPlayer();
        return;
      }
      redraw();
    },
  });
}

// The bell and its panel, placed in the header once; the stream follows the player.
export function startNotices(host) {
  bell = el("button", { type: "button", class: "bell", id: "bell", "aria-expanded": "false", "aria-controls": "notices", "data-testid": "bell" });
  panel = el("div", { class: "notices-pop panel", id: "notices", hidden: true, role: "region", "aria-label": "notifications" });
  host.append(bell, panel);
  bell.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    bell.setAttribute("aria-expanded", String(!panel.hidden));
    if (!panel.hidden) { drawPanel(); markRead(); }
    drawBell();
  });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && !panel.hidden) { panel.hidden = true; bell.setAttribute("aria-expanded", "false"); bell.focus(); } });
  window.addEventListener("hashchange", () => { if (!panel.hidden) { panel.hidden = true; bell.setAttribute("aria-expanded", "false"); } });
  kindsList().then((kinds) => { titles = Object.fromEntries(kinds.map((k) => [k.key, k.title])); redraw(); }).catch(() => {});
  window.addEventListener("tablestream:player", restart);
  window.addEventListener("storage", (ev) => { if (ev.key === "tablestream:player") restart(); });
  restart();
}
