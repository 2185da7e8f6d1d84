// Table chat: two channels, the seats' and the spectators'. A seat writes to "seats", a
// signed-in player without a seat to "spectators"; seats read the spectators only once
// the game is over. Messages arrive over the game's event stream and the player's
// stream; a message is plain text, always put on the page as text, never as HTML.

import { api } from "./api.js";
import { clear, el, toast } from "./dom.js";

const CHANNELS = { seats: "Players", spectators: "Spectators" };
const MAX = 500;

// ctx(): {seat, token, canPost, status, name(seat)}
export function chatPanel(gameId, ctx) {
  const messages = { seats: new Map(), spectators: new Map() };
  const cursor = { seats: null, spectators: null };
  const refused = { seats: null, spectators: null };
  let shown = null;
  let waitUntil = 0;
  let waitTimer = null;
  const unseen = { seats: 0, spectators: 0 };

  const tabs = el("div", { class: "chat-tabs", role: "tablist", "aria-label": "chat channels" });
  const list = el("ol", { class: "chat-log", "aria-label": "chat messages", "aria-live": "polite", "data-testid": "chat-log", tabindex: "0" });
  const note = el("p", { class: "muted small chat-note" });
  const input = el("input", { type: "text", id: `chat-text-${gameId}`, class: "chat-input", maxlength: MAX, autocomplete: "off", "aria-label": "message", "data-testid": "chat-input", placeholder: "Say something to the table" });
  const send = el("button", { type: "submit", class: "small", "data-testid": "chat-send" }, "Send");
  const form = el("form", { class: "chat-form row", "aria-label": "send a message" }, input, send);
  const node = el("section", { class: "panel chat", "aria-label": "table chat" }, el("h3", {}, "Chat"), tabs, list, note, form);

  const mine = () => (ctx().seat !== null ? "seats" : "spectators");

  function line(m) {
    const from = m.from || {};
    const who = from.name || (from.seat !== null && from.seat !== undefined ? ctx().name(from.seat) : "spectator");
    return el("li", { class: ["chat-msg", from.seat === ctx().seat && from.seat !== null ? "me" : null], "data-id": m.id, "data-channel": m.channel },
      el("b", { class: "chat-from" }, who), el("span", { class: "chat-sep" }, ": "),
      el("span", { class: "chat-text" }, String(m.text ?? "")), " ",
      el("small", { class: "muted chat-at" }, m.at ? new Date(m.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : ""));
  }

  function drawTabs() {
    clear(tabs);
    for (const [channel, label] of Object.entries(CHANNELS)) {
      tabs.appendChild(el("button", {
        type: "button", role: "tab", class: ["chip", "chat-tab"], "aria-selected": String(shown === channel), "data-channel": channel,
        onclick: () => { show(channel); },
      }, label, unseen[channel] ? ` (${unseen[channel]})` : ""));
    }
  }

  function drawList() {
    clear(list);
    const items = [...messages[shown].values()].sort((a, b) => String(a.at).localeCompare(String(b.at)) || String(a.id).localeCompare(String(b.id)));
    for (const m of items.slice(-200)) list.appendChild(line(m));
    if (refused[shown]) note.textContent = refused[shown];
    else if (!items.length) note.textContent = shown === "seats" ? "No message from the players yet." : "No message from the spectators yet.";
    else note.textContent = "";
    list.scrollTop = list.scrollHeight;
  }

  function drawForm() {
    const c = ctx();
    const can = c.canPost;
    input.disabled = !can;
    send.disabled = !can || Date.now() < waitUntil;
    input.placeholder = !can ? (c.seat === null ? "Sign in to talk with the other spectators" : "") : (mine() === "seats" ? "Say something to the players" : "Say something to the spectators");
    form.hidden = shown !== mine();
  }

  function show(channel) {
    shown = channel;
    unseen[channel] = 0;
    drawTabs();
    drawList();
    drawForm();
    if (!messages[channel].size && !refused[channel]) fetchChannel(channel);
  }

  function add(m) {
    if (!m || !m.id || !messages[m.channel]) return;
    if (messages[m.channel].has(m.id)) return;
    messages[m.channel].set(m.id, m);
    if (m.channel === shown) {
      list.appendChild(line(m));
      note.textContent = "";
      list.scrollTop = list.scrollHeight;
    } else {
      unseen[m.channel] += 1;
      drawTabs();
    }
  }

  async function fetchChannel(channel) {
    const c = ctx();
    for (let i = 0; i < 20; i += 1) {
      let page;
      try {
        const after = cursor[channel] ? `&after=${encodeURIComponent(cursor[channel])}` : "";
        page = await api(`/v1/games/${encodeURIComponent(gameId)}/chat?channel=${channel}&limit=100${after}`, { token: c.token });
      } catch (e) {
        if (e.status === 403 || e.status === 401) {
          refused[channel] = channel === "spectators" ? "The players read the spectators' chat once the game is over." : e.message;
          if (channel === shown) drawList();
        } else if (e.status !== 404) toast(`Chat: ${e.message}`, "error");
        return;
      }
      refused[channel] = null;
      for (const m of page.messages || []) add({ ...m, channel: m.channel || channel });
      if (page.next_after !== undefined && page.next_after !== null) cursor[channel] = page.next_after;
      if (!page.messages || page.messages.length < 100) break;
    }
    if (channel === shown) drawList();
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const c = ctx();
    send.disabled = true;
    try {
      const m = await api(`/v1/games/${encodeURIComponent(gameId)}/chat`, { method: "POST", token: c.token, body: { channel: mine(), text } });
      input.value = "";
      add(m);
    } catch (e) {
      if (e.status === 429) {
        const seconds = e.retryAfter || 1;
        waitUntil = Date.now() + seconds * 1000;
        toast(`Slow down: you can write again in ${seconds} s.`, "error");
        clearTimeout(waitTimer);
        waitTimer = setTimeout(drawForm, seconds * 1000 + 50);
      } else toast(e.message, "error");
    } finally {
      drawForm();
      input.focus();
    }
  });

  return {
    node,
    add,
    // The seat, token or status changed (a seat switch, the end of the game): read again.
    reset() {
      for (const channel of Object.keys(CHANNELS)) { messages[channel].clear(); cursor[channel] = null; refused[channel] = null; unseen[channel] = 0; }
      show(mine());
    },
    // After a reconnect: what arrived while the stream was down.
    catchUp() { for (const channel of Object.keys(CHANNELS)) if (messages[channel].size || channel === shown) fetchChannel(channel); },
    update() { drawForm(); },
    stop() { clearTimeout(waitTimer); },
  };
}
