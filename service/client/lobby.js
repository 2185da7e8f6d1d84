// The lobby: the kinds and their rules summaries, a form to create a game of any
// kind (my own, human, open, reserved, invite and bot seats, options, a time control,
// what becomes of a seat that leaves, unlisted, rated, or a stated position), the player, open games to join, an invite to open, your games,
// the tutorials; and the page an invite link opens.

import { api, currentPlayer, heldGames, keepCreated, kindsList, newKey, parseInvite, takeSeat } from "./api.js";
import { accountPanel, myGamesList, signInForms } from "./account.js";
import { clear, el, humanize, playerCount, seatLabel, toast } from "./dom.js";
import { TUTORIALS, keepNote, tutorialsOf } from "./tutorials.js";

const LEVELS = ["random", "greedy", "ismcts"];

// A seat: the signed-in player's own ("me"), a person by name (who gets a seat token),
// a bot, or open (to anyone, reserved for a player by name, or by an invite code).
function seatRow(i, initial) {
  const player = currentPlayer();
  const types = [player ? "me" : null, "human", "bot", "open"].filter(Boolean);
  const label = { me: player ? `Me (${player.name})` : "Me", human: "Human", bot: "Bot", open: "Open" };
  const type = el("select", { "aria-label": `seat ${i + 1} type`, name: `type-${i}`, "data-seat-type": i },
    types.map((t) => el("option", { value: t, selected: t === initial }, label[t])));
  const name = el("input", { type: "text", name: `name-${i}`, "aria-label": `seat ${i + 1} name`, placeholder: initial === "human" ? "your name" : "name (optional)", maxlength: 64, value: initial === "human" ? (localStorage.getItem("tablestream:name") || "") : "" });
  const level = el("select", { "aria-label": `seat ${i + 1} bot level`, name: `level-${i}`, "data-seat-level": i }, LEVELS.map((l) => el("option", { value: l, selected: l === "greedy" }, humanize(l))));
  const access = el("select", { "aria-label": `seat ${i + 1} who may take it`, name: `access-${i}`, "data-seat-access": i },
    [["anyone", "anyone"], ["invite", "by invite code"], ["reserved", "reserved for…"]].map(([v, t]) => el("option", { value: v }, t)));
  const row = el("div", { class: "seat-row", "data-seat": i }, el("span", { class: "seat-no" }, `Seat ${i + 1}`), type, name, level, access);
  const sync = () => {
    level.hidden = type.value !== "bot";
    access.hidden = type.value !== "open";
    name.hidden = type.value === "me" || (type.value === "open" && access.value !== "reserved");
    name.placeholder = type.value === "human" ? "player name" : type.value === "open" ? "player's name" : "bot name (optional)";
    name.setAttribute("aria-label", type.value === "open" ? `seat ${i + 1} reserved for` : `seat ${i + 1} name`);
  };
  type.addEventListener("change", sync);
  access.addEventListener("change", sync);
  sync();
  return row;
}

function seatOf(row) {
  const type = row.querySelector("[data-seat-type]").value;
  const name = row.querySelector("input").value.trim();
  if (type === "me") return { me: true };
  if (type === "open") {
    const access = row.querySelector("[data-seat-access]").value;
    if (access === "invite") return { open: true, invite: true };
    if (access === "reserved") {
      if (!name) throw new Error(`Seat ${Number(row.dataset.seat) + 1}: name the player it is reserved for.`);
      return { open: true, for: name };
    }
    return { open: true };
  }
  const level = row.querySelector("[data-seat-level]").value;
  if (type === "bot") return name ? { bot: level, name } : { bot: level };
  return { name: name || `Player ${Number(row.dataset.seat) + 1}` };
}

function optionField(opt) {
  const id = `opt-${opt.name}`;
  const help = el("small", { class: "help" }, opt.description);
  let input;
  if (opt.type === "boolean") {
    input = el("input", { type: "checkbox", id, name: opt.name, checked: !!opt.default, "data-opt": opt.name, "data-opt-type": "boolean" });
    return el("div", { class: "opt opt-check" }, input, el("label", { for: id }, humanize(opt.name)), help);
  }
  if (opt.choices) {
    input = el("select", { id, "data-opt": opt.name, "data-opt-type": opt.type },
      opt.nullable ? el("option", { value: "" }, "default") : null,
      opt.choices.map((c) => el("option", { value: JSON.stringify(c), selected: c === opt.default }, String(c))));
  } else if (opt.type === "integer") {
    input = el("input", { type: "number", id, "data-opt": opt.name, "data-opt-type": "integer", min: opt.minimum, max: opt.maximum, step: 1, value: opt.default ?? "", placeholder: opt.default === null ? "default" : "" });
  } else if (opt.type === "string") {
    input = el("input", { type: "text", id, "data-opt": opt.name, "data-opt-type": "string", value: opt.default ?? "" });
  } else {
    // arrays and objects (fixed decks and the like): advanced, as text.
    input = el("input", { type: "text", id, "data-opt": opt.name, "data-opt-type": "json", placeholder: opt.default === null ? "default" : JSON.stringify(opt.default) });
    return el("div", { class: "opt advanced" }, el("label", { for: id }, humanize(opt.name), " (advanced, JSON)"), input, help);
  }
  return el("div", { class: "opt" }, el("label", { for: id }, humanize(opt.name)), input, help);
}

function readOptions(form) {
  const options = {};
  for (const node of form.querySelectorAll("[data-opt]")) {
    const name = node.dataset.opt;
    const type = node.dataset.optType;
    if (type === "boolean") { options[name] = node.checked; continue; }
    const raw = node.value.trim();
    if (raw === "") continue;
    if (node.tagName === "SELECT") options[name] = JSON.parse(raw);
    else if (type === "integer") options[name] = Number.parseInt(raw, 10);
    else if (type === "json") {
      try { options[name] = JSON.parse(raw); } catch (_) { throw new Error(`Option ${humanize(name)} is not valid JSON.`); }
    } else options[name] = raw;
  }
  return options;
}

// The time control: none, a limit per turn (the turn timer moves for a seat that lets it
// run out, and a seat it moves for too often in a row has abandoned the game), or a clock
// per seat (initial minutes, and seconds added after each move). And, for a game of more
// than two, what becomes of a seat that leaves: out, or a bot that plays on to win.
function timeControl() {
  const how = el("select", { id: "time-control", "data-testid": "time-control" },
    [["none", "None"], ["turn", "A limit per turn"], ["clock", "A clock per seat"]].map(([v, t]) => el("option", { value: v }, t)));
  const turnSeconds = el("input", { type: "number", id: "turn-seconds", min: 1, max: 86400, step: 1, value: 60 });
  const abandonAfter = el("input", { type: "number", id: "abandon-after", min: 1, max: 100, step: 1, value: 3 });
  const minutes = el("input", { type: "number", id: "clock-minutes", min: 0.05, max: 10080, step: "any", value: 5 });
  const increment = el("input", { type: "number", id: "clock-increment", min: 0, max: 3600, step: 1, value: 3 });
  const onLeave = el("select", { id: "on-leave" },
    el("option", { value: "out" }, "Out: a bot makes its moves, the seat cannot win"),
    el("option", { value: "bot" }, "A bot takes the seat over and plays to win"));
  const turnBox = el("div", {}, el("div", { class: "opt" }, el("label", { for: "turn-seconds" }, "Seconds per turn"), turnSeconds),
    el("div", { class: "opt" }, el("label", { for: "abandon-after" }, "Abandoned after this many timer moves in a row"), abandonAfter));
  const clockBox = el("div", {}, el("div", { class: "opt" }, el("label", { for: "clock-minutes" }, "Minutes per seat"), minutes),
    el("div", { class: "opt" }, el("label", { for: "clock-increment" }, "Seconds added per move"), increment),
    el("small", { class: "help" }, "A seat whose clock runs out loses (in a game of more than two, it leaves the game)."));
  const leaveBox = el("div", { class: "opt" }, el("label", { for: "on-leave" }, "A seat that resigns, runs out of time or abandons"), onLeave);
  const node = el("fieldset", { class: "time-opts" }, el("legend", {}, "Time control"), el("div", { class: "opt" }, el("label", { for: "time-control" }, "Limit"), how), turnBox, clockBox, leaveBox);
  let players = 2;
  const sync = () => {
    turnBox.hidden = how.value !== "turn";
    clockBox.hidden = how.value !== "clock";
    leaveBox.hidden = players <= 2;
  };
  how.addEventListener("change", sync);
  sync();
  const whole = (input, what, low, high) => {
    const n = Number(input.value);
    if (!Number.isInteger(n) || n < low || n > high) throw new Error(`${what} must be a whole number from ${low} to ${high}.`);
    return n;
  };
  return {
    node,
    players(n) { players = n; sync(); },
    read() {
      const out = {};
      if (how.value === "turn") {
        out.turn_seconds = whole(turnSeconds, "Seconds per turn", 1, 86400);
        out.abandon_after = whole(abandonAfter, "Timer moves in a row", 1, 100);
      } else if (how.value === "clock") {
        const initial = Math.round(Number(minutes.value) * 60);
        if (!Number.isFinite(initial) || initial < 1) throw new Error("A clock needs a positive number of minutes.");
        out.clock = { initial, increment: whole(increment, "Seconds added per move", 0, 3600) };
      }
      if (players > 2) out.on_leave = onLeave.value;
      return out;
    },
  };
}

// Advanced: the options of a stated position, pasted as JSON (or a tutorial's, picked), laid
// over the options above. Checked here as a JSON object; the service checks the cards, and
// its refusal is shown under the field.
function positionField(onPick) {
  const pick = el("select", { id: "position-pick", "data-testid": "position-pick" });
  const text = el("textarea", { id: "position", "data-testid": "position-json", rows: 5, spellcheck: "false", autocomplete: "off", placeholder: '{"deck": ["KS", "2H", ...]}', "aria-describedby": "position-help position-error" });
  const error = el("div", { id: "position-error", class: "position-error error", "data-testid": "position-error", role: "alert", hidden: true });
  const node = el("details", { class: "position", "data-testid": "position" },
    el("summary", {}, "Advanced: start from a stated position"),
    el("p", { id: "position-help", class: "help" }, "The options of a position set up in advance: every card order as given, nothing shuffled, so the game is not a fair deal. Each game's README says how its cards are dealt; the ",
      el("a", { href: "#/tutorials" }, "tutorials"), " start from positions like these."),
    el("div", { class: "opt" }, el("label", { for: "position-pick" }, "A tutorial's position"), pick),
    el("div", { class: "opt" }, el("label", { for: "position" }, "Options of the position (JSON)"), text),
    error);
  let kind = null;
  let picked = null; // the text a tutorial's pick put in the field, until it is edited
  const showError = (title, lines = []) => {
    clear(error).append(el("strong", {}, title), ...(lines.length ? [el("ul", {}, lines.map((l) => el("li", {}, l)))] : []));
    error.hidden = false;
    text.setAttribute("aria-invalid", "true");
  };
  const clearError = () => { clear(error); error.hidden = true; text.removeAttribute("aria-invalid"); };
  pick.addEventListener("change", () => {
    const tutorial = TUTORIALS.find((t) => t.id === pick.value);
    clearError();
    if (!tutorial) return;
    text.value = JSON.stringify(tutorial.options, null, 1);
    picked = text.value;
    onPick(tutorial);
  });
  text.addEventListener("input", () => { clearError(); pick.value = ""; picked = null; });
  return {
    node,
    kind(key) {
      if (key === kind) return;
      kind = key;
      const mine = tutorialsOf(key);
      clear(pick).append(el("option", { value: "" }, mine.length ? "none: paste your own" : "none for this game"), ...mine.map((t) => el("option", { value: t.id }, t.title)));
      // Another game's tutorial position would only be refused: it goes with its game.
      if (picked !== null && text.value === picked) { text.value = ""; picked = null; }
      clearError();
    },
    // The position's options, or null when the field is empty; throws when it is not a JSON object.
    read() {
      const raw = text.value.trim();
      if (!raw) return null;
      let parsed;
      try { parsed = JSON.parse(raw); } catch (e) {
        node.open = true;
        showError("The position is not valid JSON.", [e.message]);
        text.focus();
        throw Object.assign(new Error("The position is not valid JSON."), { shown: true });
      }
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        node.open = true;
        showError("The position must be a JSON object of options, such as {\"deck\": [...]}.");
        text.focus();
        throw Object.assign(new Error("The position must be a JSON object of options."), { shown: true });
      }
      return parsed;
    },
    refused(e) {
      node.open = true;
      showError(`Refused by the service: ${e.problem?.title || e.message}.`, [].concat(e.problem?.problems || (e.problem?.detail ? [e.problem.detail] : [])));
    },
    clearError,
  };
}

function createForm(kinds, onCreated) {
  const player = currentPlayer();
  const kindSelect = el("select", { id: "kind", name: "kind", "data-testid": "kind" }, kinds.map((k) => el("option", { value: k.key }, k.title)));
  const count = el("input", { type: "number", id: "players", name: "players", min: 1, max: 16, value: 2 });
  const seatsBox = el("div", { class: "seat-rows" });
  const optsBox = el("div", { class: "opts" });
  const summary = el("p", { class: "kind-summary" });
  const unlisted = el("input", { type: "checkbox", id: "unlisted", name: "unlisted" });
  const rated = el("input", { type: "checkbox", id: "rated", name: "rated", disabled: !player });
  const table = el("fieldset", { class: "table-opts" }, el("legend", {}, "Table"),
    el("div", { class: "opt opt-check" }, unlisted, el("label", { for: "unlisted" }, "Unlisted"),
      el("small", { class: "help" }, "Kept out of the lobby, the lists and profiles; anyone with its link still reaches it.")),
    el("div", { class: "opt opt-check" }, rated, el("label", { for: "rated" }, "Rated"),
      el("small", { class: "help" }, player ? "The result moves the players' ratings: every seat is a player's (me, or open, reserved or by invite), no bots." : "Sign in to play rated games.")));
  const time = timeControl();
  const position = positionField((tutorial) => {
    count.value = tutorial.players;
    layoutSeats();
  });
  const form = el("form", { class: "panel create", "aria-label": "create a game" },
    el("h3", {}, "New game"),
    el("div", { class: "opt" }, el("label", { for: "kind" }, "Game"), kindSelect), summary,
    el("div", { class: "opt" }, el("label", { for: "players" }, "Players"), count),
    seatsBox, optsBox, time.node, table, position.node,
    el("button", { type: "submit", class: "primary", "data-testid": "create" }, "Create game"));

  const current = () => kinds.find((k) => k.key === kindSelect.value);
  function layoutSeats() {
    const k = current();
    const n = Math.max(k.min_players, Math.min(k.max_players, Number(count.value) || k.min_players));
    count.min = k.min_players; count.max = k.max_players; count.value = n;
    const before = [...seatsBox.querySelectorAll("[data-seat-type]")].map((s) => s.value);
    clear(seatsBox);
    for (let i = 0; i < n; i += 1) seatsBox.appendChild(seatRow(i, before[i] || (i === 0 ? (player ? "me" : "human") : "bot")));
    time.players(n);
  }
  function layoutKind() {
    const k = current();
    summary.textContent = `${k.summary} (${playerCount(k.min_players, k.max_players)})`;
    clear(optsBox);
    if (k.options.length) optsBox.appendChild(el("fieldset", {}, el("legend", {}, "Options"), k.options.map(optionField)));
    position.kind(k.key);
    layoutSeats();
  }
  kindSelect.addEventListener("change", layoutKind);
  count.addEventListener("change", layoutSeats);
  layoutKind();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = form.querySelector("button[type=submit]");
    let stated = null;
    try {
      position.clearError();
      stated = position.read();
      const players = [...seatsBox.querySelectorAll(".seat-row")].map(seatOf);
      const first = players.find((p) => p.name && !p.bot && !p.open);
      if (first) localStorage.setItem("tablestream:name", first.name);
      const body = { kind: kindSelect.value, players, options: { ...readOptions(form), ...stated }, ...time.read() };
      if (unlisted.checked) body.unlisted = true;
      if (rated.checked) body.rated = true;
      const me = currentPlayer();
      if (players.some((p) => p.me) && !me) throw new Error("Sign in to take a seat as yourself.");
      button.disabled = true;
      const game = await api("/v1/games", { method: "POST", body, token: me?.key, headers: { "Idempotency-Key": newKey() } });
      const mine = keepCreated(game, me);
      if (stated && !game.fair_deal) keepNote(game.id, "A stated position", "This game was set up from the position you gave: nothing was shuffled, so it is not a fair deal.");
      onCreated(game, mine);
    } catch (e) {
      if (e.shown) return; // said under the position's field, as an alert
      if (stated && e.code === "invalid_options") { position.refused(e); return; }
      const more = e.problem?.problems ? `: ${[].concat(e.problem.problems).join("; ")}` : "";
      toast(`${e.message}${more}`, "error");
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

// A finished game that did not end by its rules says so in the lists.
const ENDING_PILLS = { resignation: "resigned", abort: "aborted", time: "on time", abandonment: "abandoned" };

function gameItem(g, kinds, extra) {
  const title = kinds.find((k) => k.key === g.kind)?.title || g.kind;
  return el("li", { class: "game-item" },
    el("a", { href: `#/game/${g.id}` }, `${title}`), " ",
    el("span", { class: ["pill", `status-${g.status}`] }, g.status), " ",
    g.rated ? el("span", { class: "pill" }, "rated") : null, " ",
    g.fair_deal === false ? [el("span", { class: "pill warn", "data-testid": "unfair-pill", title: "Set up from a stated position: the cards were not shuffled" }, "not a fair deal"), " "] : null,
    ENDING_PILLS[g.outcome?.ending] ? [el("span", { class: "pill", "data-testid": "ending-pill" }, ENDING_PILLS[g.outcome.ending]), " "] : null,
    el("small", { class: "muted" }, g.seats.map((s) => seatLabel(s)).join(", ")), " ",
    extra);
}

async function openGames(box, kinds) {
  const me = currentPlayer();
  const nameInput = el("input", { type: "text", id: "join-name", maxlength: 64, value: localStorage.getItem("tablestream:name") || "", placeholder: "your name" });
  clear(box).append(el("h3", {}, "Open games"),
    me ? el("p", { class: "muted small" }, `You join as ${me.name}.`) : el("div", { class: "opt" }, el("label", { for: "join-name" }, "Join as"), nameInput));
  let page;
  try { page = await api("/v1/games?status=open&limit=50"); } catch (e) { box.appendChild(el("p", { class: "error" }, e.message)); return; }
  if (!page.games.length) { box.appendChild(el("p", { class: "muted" }, "No game has an open seat right now.")); return; }
  box.appendChild(el("ul", { class: "games" }, page.games.map((g) => gameItem(g, kinds, el("span", { class: "join" },
    g.seats.filter((s) => s.open && !s.invite && (!s.reserved_for || s.reserved_for === me?.id)).map((s) => el("button", {
      type: "button", class: "small", "data-join": `${g.id}:${s.seat}`,
      onclick: async () => {
        const name = nameInput.value.trim();
        if (!me && !name) { toast("Type your name first.", "error"); nameInput.focus(); return; }
        try {
          const joined = await takeSeat(g.id, s.seat, { name });
          if (!me) localStorage.setItem("tablestream:name", name);
          location.hash = `#/game/${g.id}?seat=${joined.seat}`;
        } catch (e) { toast(e.message, "error"); }
      },
    }, `Join seat ${s.seat + 1}`)))))));
}

function inviteForm() {
  const input = el("input", { type: "text", id: "invite-code", "data-testid": "invite-input", placeholder: "an invite link or code", autocomplete: "off" });
  const form = el("form", { class: "panel invite-join", "aria-label": "join with an invite" },
    el("h3", {}, "Join with an invite"),
    el("div", { class: "opt" }, el("label", { for: "invite-code" }, "Paste the link or code you were sent"), input),
    el("button", { type: "submit", "data-testid": "invite-go" }, "Open the invite"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const invite = parseInvite(input.value);
    if (!invite) { toast("That is not an invite: paste the whole link, or game/seat/code.", "error"); return; }
    location.hash = `#/join/${encodeURIComponent(invite.game)}/${invite.seat}/${encodeURIComponent(invite.code)}`;
  });
  return form;
}

async function browserGames(box, kinds) {
  const held = heldGames().slice(0, 15);
  clear(box).appendChild(el("h3", {}, currentPlayer() ? "Seats held in this browser" : "Your games"));
  if (!held.length) { box.appendChild(el("p", { class: "muted" }, "Games you create or join appear here.")); return; }
  const list = el("ul", { class: "games" });
  box.appendChild(list);
  for (const h of held) {
    try {
      const g = await api(`/v1/games/${encodeURIComponent(h.id)}`);
      list.appendChild(gameItem(g, kinds, g.status === "finished" ? el("a", { href: `#/replay/${g.id}` }, "replay") : null));
    } catch (_) { /* gone from this server */ }
  }
}

async function finishedGames(box, kinds) {
  clear(box).appendChild(el("h3", {}, "Recently finished"));
  try {
    const page = await api("/v1/games?status=finished&limit=10");
    if (!page.games.length) { box.appendChild(el("p", { class: "muted" }, "None yet.")); return; }
    box.appendChild(el("ul", { class: "games" }, page.games.map((g) => gameItem(g, kinds, el("a", { href: `#/replay/${g.id}` }, "replay")))));
  } catch (e) { box.appendChild(el("p", { class: "error" }, e.message)); }
}

export async function showLobby(root) {
  clear(root).appendChild(el("p", { class: "muted" }, "Loading the games…"));
  let kinds;
  try { kinds = await kindsList(); } catch (e) { clear(root).appendChild(el("p", { class: "error" }, e.message)); return () => {}; }
  const open = el("section", { class: "panel" });
  const mine = el("section", { class: "panel my-games-panel" });
  const browser = el("section", { class: "panel" });
  const finished = el("section", { class: "panel" });
  const seeks = el("section", { class: "panel seeks", "data-testid": "seeks" });
  const account = accountPanel();
  const form = createForm(kinds, (game, seat) => { location.hash = `#/game/${game.id}${seat !== null ? `?seat=${seat}` : ""}`; });
  clear(root).appendChild(el("div", { class: "lobby" },
    el("div", { class: "lobby-main" }, form, tutorialsPanel(kinds), el("section", { class: "panel kinds" }, el("h3", {}, "The games"),
      el("ul", { class: "kind-list" }, kinds.map((k) => el("li", {}, el("h4", {}, k.title, " ", el("small", { class: "muted" }, `${k.key} · ${k.min_players}–${k.max_players} players`)), el("p", {}, k.summary)))))),
    el("div", { class: "lobby-side" }, account.node, mine, seeks, inviteForm(), browser, open, finished,
      el("button", { type: "button", class: "secondary", onclick: () => openGames(open, kinds) }, "Refresh open games"))));
  const leaveMine = myGamesList(mine, { limit: 10 });
  mine.hidden = !currentPlayer();
  openGames(open, kinds);
  const leaveSeeks = seekPanel(seeks, kinds);
  browserGames(browser, kinds);
  finishedGames(finished, kinds);
  // Signing in or out here changes what the form offers and whose games show: draw anew.
  const onPlayer = () => window.dispatchEvent(new HashChangeEvent("hashchange"));
  window.addEventListener("tablestream:player", onPlayer, { once: true });
  return () => { leaveMine(); leaveSeeks(); account.leave(); window.removeEventListener("tablestream:player", onPlayer); };
}

// The tutorials, by game: each a position set up against the bot (tutorials.js).
function tutorialsPanel(kinds) {
  return el("section", { class: "panel tutorials-entry", "data-testid": "tutorials-entry" },
    el("h3", {}, "Tutorials"),
    el("p", { class: "small" }, "New to a game? Start one from a position set up to show a rule at work, against the bot, with a note of what to try. ",
      el("a", { href: "#/tutorials", "data-testid": "tutorials-link" }, "All tutorials")),
    el("ul", { class: "tutorial-kinds" }, kinds.filter((k) => tutorialsOf(k.key).length).map((k) => el("li", {},
      el("a", { href: `#/tutorials/${encodeURIComponent(k.key)}` }, k.title), " ",
      el("small", { class: "muted" }, tutorialsOf(k.key).map((t) => t.title).join(" · "))))));
}

// Quick play: the open seeks of a kind, and a seek of one's own; a worker pairs seeks, and
// the seek_filled notice on the player's stream opens the game.
function seekPanel(box, kinds) {
  const me = currentPlayer();
  const kind = el("select", { "aria-label": "game to seek", "data-testid": "seek-kind" }, kinds.map((k) => el("option", { value: k.key }, k.title)));
  const rated = el("input", { type: "checkbox", "aria-label": "rated" });
  const list = el("ul", { class: "seek-list", "data-testid": "seek-list" });
  const status = el("p", { class: "muted small", role: "status" });
  let mine = null;
  let timer = null;
  async function refresh() {
    clearTimeout(timer);
    try {
      const found = await api(`/v1/seeks?kind=${encodeURIComponent(kind.value)}`);
      clear(list).append(...(found.seeks.length ? found.seeks.map((s) => el("li", {}, `${s.player.name}${s.player.account === "bot" ? " (bot account)" : ""} · ${s.rating}`, s.rated ? " · rated" : "", s.clock ? ` · ${s.clock.initial}+${s.clock.increment} s` : "")) : [el("li", { class: "muted" }, "Nobody is seeking this game now.")]));
      if (mine) {
        const seek = await api(`/v1/seeks/${encodeURIComponent(mine)}`);
        if (seek.game) { location.hash = `#/game/${encodeURIComponent(seek.game)}`; return; }
      }
    } catch (e) { clear(list).append(el("li", { class: "error" }, e.message)); }
    timer = setTimeout(refresh, mine ? 1500 : 8000);
  }
  const go = async () => {
    try {
      const made = await api("/v1/seeks", { method: "POST", token: me.key, body: { kind: kind.value, rated: rated.checked } });
      mine = made.id;
      status.textContent = "Seeking: a worker pairs you with the next player who seeks the same.";
      refresh();
    } catch (e) { toast(e.message, "error"); }
  };
  kind.addEventListener("change", refresh);
  box.append(el("h3", {}, "Quick play"),
    el("div", { class: "row" }, kind, me ? el("label", {}, rated, " rated") : null,
      me ? el("button", { type: "button", "data-testid": "seek", onclick: go }, "Seek a game") : el("span", { class: "muted small" }, "Sign in to seek a game.")),
    status, list);
  refresh();
  return () => clearTimeout(timer);
}

// An invite: the game it opens, and a button to take the seat (as the signed-in player,
// or by name), or a sign-in first.
export async function showJoin(root, gameId, seat, code) {
  clear(root).appendChild(el("p", { class: "muted" }, "Loading the invite…"));
  let game;
  let kinds = [];
  try {
    [game, kinds] = await Promise.all([api(`/v1/games/${encodeURIComponent(gameId)}`), kindsList().catch(() => [])]);
  } catch (e) {
    clear(root).appendChild(el("p", { class: "error" }, e.status === 404 ? "This invite's game does not exist (or not on this server)." : e.message));
    return () => {};
  }
  const title = kinds.find((k) => k.key === game.kind)?.title || game.kind;
  const target = game.seats[seat];
  const box = el("section", { class: "panel join-invite", "aria-label": "invite" });
  const draw = () => {
    const me = currentPlayer();
    clear(box).append(el("h2", {}, `An invite to ${title}`),
      el("p", {}, `Seats: ${game.seats.map((s) => seatLabel(s, s.seat === seat ? "you?" : "open")).join(", ")}.`),
      game.rated ? el("p", { class: "note" }, "A rated game: the result moves both players' ratings.") : null);
    if (!target || !target.open) {
      box.append(el("p", { class: "warn" }, "This seat is taken already."), el("a", { class: "button", href: `#/game/${encodeURIComponent(gameId)}` }, "Watch the game"));
      return;
    }
    const nameInput = el("input", { type: "text", id: "invite-name", maxlength: 64, value: localStorage.getItem("tablestream:name") || "" });
    const go = el("button", {
      type: "button", class: "primary", "data-testid": "accept-invite",
      onclick: async () => {
        go.disabled = true;
        try {
          const joined = await takeSeat(gameId, seat, { name: nameInput.value.trim() || null, invite: code });
          location.hash = `#/game/${encodeURIComponent(gameId)}?seat=${joined.seat}`;
        } catch (e) { toast(e.message, "error"); go.disabled = false; }
      },
    }, me ? `Join as ${me.name}` : "Join by name");
    if (me) box.append(go);
    else {
      box.append(el("p", { class: "muted" }, game.rated ? "Sign up or sign in to take this seat." : "Sign up or sign in to keep this game with your player, or join by name only."));
      if (!game.rated) box.append(el("div", { class: "opt" }, el("label", { for: "invite-name" }, "Your name"), nameInput), go);
      box.append(signInForms({ compact: true }));
    }
  };
  clear(root).appendChild(el("div", { class: "join-page" }, box));
  window.addEventListener("tablestream:player", draw);
  draw();
  return () => window.removeEventListener("tablestream:player", draw);
}
