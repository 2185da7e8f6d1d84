// The player: sign up by name, sign in with a key, the key itself (shown with a copy
// button and a warning; rotate, revoke), sign out, and the player's own games with
// whose turn it is. The key lives in this browser's localStorage only.

import { api, currentPlayer, forgetPlayer, keepPlayer, kindsList } from "./api.js";
import { clear, el, seatLabel, toast } from "./dom.js";
import { noticeList } from "./notify.js";

const FRESH = "tablestream:fresh-key"; // the account page shows a key just issued, once
const AFTER = "tablestream:after-signup"; // an invite page to go back to once the key is kept

function problemText(e) {
  const more = e.problem?.problems ? `: ${[].concat(e.problem.problems).join("; ")}` : "";
  return `${e.message}${more}`;
}

// Sign up by name, or sign in with a key kept from before.
export function signInForms({ compact = false } = {}) {
  const name = el("input", { type: "text", id: "signup-name", name: "name", autocomplete: "username", required: true, minlength: 3, maxlength: 20, pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]{2,19}", placeholder: "3–20 letters, digits, - or _" });
  const signup = el("form", { class: "signup", "aria-label": "sign up" },
    el("h4", {}, "New player"),
    el("div", { class: "opt" }, el("label", { for: "signup-name" }, "Choose a name"), name),
    el("button", { type: "submit", class: "primary", "data-testid": "signup" }, "Sign up"));
  signup.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = signup.querySelector("button");
    button.disabled = true;
    try {
      const player = await api("/v1/players", { method: "POST", body: { name: name.value.trim() } });
      sessionStorage.setItem(FRESH, "1");
      if (location.hash.startsWith("#/join/")) sessionStorage.setItem(AFTER, location.hash);
      keepPlayer(player);
      location.hash = "#/me";
    } catch (e) {
      toast(problemText(e), "error");
    } finally {
      button.disabled = false;
    }
  });

  const key = el("input", { type: "password", id: "signin-key", name: "key", autocomplete: "current-password", required: true, placeholder: "tsp_…" });
  const signin = el("form", { class: "signin", "aria-label": "sign in with a key" },
    el("h4", {}, "I have a key"),
    el("div", { class: "opt" }, el("label", { for: "signin-key" }, "Paste your player key"), key),
    el("button", { type: "submit", class: "secondary", "data-testid": "signin" }, "Sign in"));
  signin.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const pasted = key.value.trim();
    try {
      const me = await api("/v1/players/me", { token: pasted });
      keepPlayer({ ...me, key: pasted });
      key.value = "";
      toast(`Signed in as ${me.name}.`);
      if (!compact) location.hash = "#/me";
    } catch (e) {
      toast(e.status === 401 ? "That key is unknown, rotated or revoked." : problemText(e), "error");
    }
  });
  return el("div", { class: "sign-in" }, signup, signin);
}

// The lobby's corner: who is signed in, or the forms.
export function accountPanel() {
  const box = el("section", { class: "panel account", "aria-label": "player" });
  const draw = () => {
    const player = currentPlayer();
    clear(box).appendChild(el("h3", {}, "Player"));
    if (!player) {
      box.append(el("p", { class: "muted small" }, "Play as a player to keep your games, get notifications, invite friends and be rated."), signInForms({ compact: true }));
      return;
    }
    box.append(el("p", {}, "Signed in as ", el("b", { "data-testid": "player-name" }, player.name), "."),
      el("div", { class: "row" },
        el("a", { class: "button secondary", href: "#/me" }, "My account"),
        el("a", { class: "button secondary", href: `#/players/${encodeURIComponent(player.name)}` }, "Profile and ratings")));
  };
  window.addEventListener("tablestream:player", draw);
  draw();
  return { node: box, leave: () => window.removeEventListener("tablestream:player", draw) };
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (_) {
    const area = el("textarea", { class: "offscreen", readonly: true });
    area.value = text;
    document.body.appendChild(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (_) { ok = false; }
    area.remove();
    return ok;
  }
}

export function copyButton(getText, label = "Copy", testid = null) {
  return el("button", {
    type: "button", class: "secondary small", "data-testid": testid,
    onclick: async () => { toast((await copyText(getText())) ? "Copied." : "Could not copy: select the text and copy it.", "info"); },
  }, label);
}

function keyBox(player, fresh) {
  const field = el("input", { type: fresh ? "text" : "password", readonly: true, value: player.key, id: "player-key", "data-testid": "player-key", "aria-label": "your player key", class: "key-field" });
  const reveal = el("button", {
    type: "button", class: "secondary small",
    onclick: () => { field.type = field.type === "password" ? "text" : "password"; reveal.textContent = field.type === "password" ? "Show" : "Hide"; },
  }, fresh ? "Hide" : "Show");
  return el("section", { class: ["panel key-panel", fresh && "fresh"], "aria-label": "player key" },
    el("h3", {}, "Your key"),
    el("p", { class: "note", role: fresh ? "alert" : null, "data-testid": "key-warning" },
      fresh ? "This is your player key, and the service will never show it again (it keeps only a hash). " : "Your player key: whoever has it plays as you. ",
      "Copy it somewhere safe: it is the only way to sign in as ", el("b", {}, player.name), " in another browser, or here again after signing out."),
    el("div", { class: "row" }, field, reveal, copyButton(() => player.key, "Copy key", "copy-key")));
}

export function myGamesList(box, { status = "", limit = 20 } = {}) {
  const player = currentPlayer();
  if (!player) { clear(box); return () => {}; }
  let timer = null;
  let alive = true;
  const list = el("div", { class: "my-games-list" }, el("p", { class: "muted" }, "Loading your games…"));
  const filter = el("select", { id: "my-status", "aria-label": "status", onchange: () => refresh() },
    [["", "all"], ["active", "active"], ["open", "open"], ["finished", "finished"]].map(([v, t]) => el("option", { value: v, selected: v === status }, t)));
  clear(box).append(el("div", { class: "title-row" }, el("h3", {}, "My games"), el("label", { class: "small" }, "Show ", filter)), list);

  async function refresh() {
    if (!alive) return;
    const me = currentPlayer();
    if (!me) return;
    try {
      const [page, kinds] = await Promise.all([
        api(`/v1/players/me/games?limit=${limit}${filter.value ? `&status=${filter.value}` : ""}`, { token: me.key }),
        kindsList().catch(() => []),
      ]);
      if (!alive) return;
      clear(list);
      if (!page.games.length) { list.appendChild(el("p", { class: "muted", "data-testid": "no-games" }, "No games yet: create one, or join one with an invite.")); return; }
      list.appendChild(el("ul", { class: "games my-games" }, page.games.map((g) => {
        const title = kinds.find((k) => k.key === g.kind)?.title || g.kind;
        const others = g.seats.filter((s) => s.seat !== g.my_seat).map((s) => seatLabel(s)).join(", ");
        return el("li", { class: ["game-item", g.my_turn && "my-turn"], "data-game": g.id },
          el("a", { href: `#/game/${encodeURIComponent(g.id)}` }, title), " ",
          el("span", { class: ["pill", `status-${g.status}`] }, g.status), " ",
          g.my_turn ? el("span", { class: "pill turn", "data-testid": "your-turn" }, "your turn") : null, " ",
          g.rated ? el("span", { class: "pill" }, "rated") : null, " ",
          g.unlisted ? el("span", { class: "pill" }, "unlisted") : null, " ",
          el("small", { class: "muted" }, others ? `with ${others}` : ""), " ",
          g.status === "finished" ? el("a", { href: `#/replay/${encodeURIComponent(g.id)}` }, "replay") : null);
      })));
    } catch (e) {
      clear(list).appendChild(el("p", { class: "error" }, e.message));
    }
  }
  // A notice (a turn, a start, an end) changes the list: read it again, once per burst.
  const onNotice = () => { clearTimeout(timer); timer = setTimeout(refresh, 400); };
  window.addEventListener("tablestream:notice", onNotice);
  refresh();
  return () => { alive = false; clearTimeout(timer); window.removeEventListener("tablestream:notice", onNotice); };
}

// The page drawn anew through the router, so that the one before is left properly.
const redraw = () => window.dispatchEvent(new HashChangeEvent("hashchange"));

export async function showAccount(root) {
  const player = currentPlayer();
  if (!player) {
    clear(root).appendChild(el("div", { class: "account-page" },
      el("h2", {}, "Play as a player"),
      el("p", { class: "muted" }, "A player keeps its games across browsers and seats, gets notifications, can be invited by name, and is rated in rated games."),
      el("section", { class: "panel" }, signInForms())));
    const back = () => { if (currentPlayer()) redraw(); };
    window.addEventListener("tablestream:player", back, { once: true });
    return () => window.removeEventListener("tablestream:player", back);
  }
  const fresh = sessionStorage.getItem(FRESH) === "1";
  const after = fresh ? sessionStorage.getItem(AFTER) : null;
  sessionStorage.removeItem(FRESH);
  sessionStorage.removeItem(AFTER);
  const gamesBox = el("section", { class: "panel my-games-panel" });
  const noticesBox = el("section", { class: "panel" }, el("h3", {}, "Notifications"), noticeList());
  const redrawNotices = () => { clear(noticesBox).append(el("h3", {}, "Notifications"), noticeList()); };
  window.addEventListener("tablestream:notices-drawn", redrawNotices);

  const revokeBox = el("div", { class: "row" });
  const drawRevoke = (asking) => {
    clear(revokeBox);
    if (!asking) {
      revokeBox.appendChild(el("button", { type: "button", class: "secondary", "data-testid": "revoke", onclick: () => drawRevoke(true) }, "Revoke key…"));
      return;
    }
    revokeBox.append(el("span", { class: "warn" }, `Revoking closes ${player.name} for good: no key will work again.`),
      el("button", { type: "button", class: "primary", "data-testid": "revoke-confirm", onclick: revoke }, "Revoke for good"),
      el("button", { type: "button", class: "secondary", onclick: () => drawRevoke(false) }, "Keep it"));
  };
  async function rotate() {
    try {
      const answer = await api("/v1/players/me/key", { method: "POST", token: player.key });
      sessionStorage.setItem(FRESH, "1");
      keepPlayer(answer);
      toast("A new key: the old one no longer works.");
      redraw();
    } catch (e) { toast(problemText(e), "error"); }
  }
  async function revoke() {
    try {
      await api("/v1/players/me/key", { method: "DELETE", token: player.key });
      forgetPlayer();
      toast(`${player.name} is closed: its key is revoked.`);
      location.hash = "#/";
    } catch (e) { toast(problemText(e), "error"); }
  }
  drawRevoke(false);

  clear(root).appendChild(el("div", { class: "account-page" },
    el("div", { class: "title-row" }, el("h2", {}, player.name),
      el("a", { class: "button secondary", href: `#/players/${encodeURIComponent(player.name)}` }, "Profile and ratings"),
      el("a", { class: "button secondary", href: "#/" }, "New game")),
    el("p", { class: "muted small" }, `Player ${player.id}`, player.created_at ? `, since ${new Date(player.created_at).toLocaleDateString()}` : ""),
    el("div", { class: "lobby" },
      el("div", { class: "lobby-main" }, keyBox(player, fresh),
        after ? el("p", {}, el("a", { class: "button primary", href: after, "data-testid": "back-to-invite" }, "I have kept my key: back to the invite")) : null,
        gamesBox),
      el("div", { class: "lobby-side" }, noticesBox,
        el("section", { class: "panel" }, el("h3", {}, "Key and session"),
          el("p", { class: "small muted" }, "Rotate: a new key, and the old one stops at once. Sign out: this browser forgets the key (keep a copy to come back)."),
          el("div", { class: "row" },
            el("button", { type: "button", class: "secondary", "data-testid": "rotate", onclick: rotate }, "Rotate key"),
            el("button", { type: "button", class: "secondary", "data-testid": "signout", onclick: () => { forgetPlayer(); toast("Signed out."); location.hash = "#/"; } }, "Sign out")),
          revokeBox)))));
  const leaveGames = myGamesList(gamesBox);
  return () => { leaveGames(); window.removeEventListener("tablestream:notices-drawn", redrawNotices); };
}
