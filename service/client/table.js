// The table: one seat's view of a game, its legal actions as buttons, the live
// event log over SSE (its hash chain checked as it arrives), each seat's clock ticking,
// undo requests, resign and abort, table chat, invites to share while seats are open,
// the outcome and how the game ended, and a rematch. A signed-in player acts with its
// key for the seat it holds.

import { ApiError, api, currentPlayer, invitesOf, inviteLink, keepSeat, kindTitle, newKey, seatsHeld, streamEvents, takeSeat } from "./api.js";
import { chatPanel } from "./chat.js";
import { copyButton } from "./account.js";
import { clear, el, humanize, redrawChanged } from "./dom.js";
import { namedTitle } from "./cards.js";
import { facesOf, loadFaces } from "./faces.js";
import { markScrollers, reachable, wireBoard } from "./boardplay.js";
import { markTerms, useTerms } from "./terms.js";
import { kindModule } from "./kinds/index.js";
import { genericEventText, genericLabel, nameOf, refsOf } from "./kinds/common.js";
import { toast } from "./dom.js";
import { LiveChain } from "./verify.js";
import { LEFT_WORDS, clockReader, describeEnding, formatClock, isLow, lifecycleEventText, seatsThatMoved, timeControlText } from "./endings.js";

export function seatName(seats, i) {
  const s = seats?.[i];
  if (!s) return `Seat ${i + 1}`;
  if (s.name) return s.name;
  if (s.bot) return `${humanize(s.bot)} bot ${i + 1}`;
  return s.open ? `Open seat ${i + 1}` : `Seat ${i + 1}`;
}

const SEATISH = new Set(["seat", "opponent", "fortress", "target_seat", "player"]);

function valueName(key, value, game) {
  if (SEATISH.has(key) && typeof value === "number") return seatName(game.seats, value);
  if (typeof value === "number") return ["die", "fort", "from", "to", "ability"].includes(key) ? String(value + 1) : String(value);
  return nameOf(value, { cardName: (id) => namedTitle(id), name: (i) => seatName(game.seats, i) });
}

// ``onlooker``: the view is drawn from ``viewer``'s side for someone else (a replay shows
// each seat's view to whoever watches it): the cards are that seat's, the words never "you".
export function makeCtx(game, view, actions = [], viewer = game.seat, onlooker = false) {
  const km = kindModule(game.kind);
  const faces = facesOf(game.kind);
  const name = (i) => seatName(game.seats, i);
  // Whether the words speak to seat ``i`` as "you": the viewer's own, never to an onlooker.
  const isYou = (i) => !onlooker && viewer !== null && viewer !== undefined && i === viewer;
  return {
    view,
    actions,
    seat: viewer ?? null,
    seats: game.seats,
    name,
    isYou,
    onlooker,
    who: (i) => (isYou(i) ? "You" : name(i)),
    status: game.status, // open | active | finished (by the rules, or a resignation, an abort, the clock)
    over: game.status === "finished",
    face: (id) => faces[km.faceKey ? km.faceKey(id) : id] || null,
    cardName: (id) => faces[km.faceKey ? km.faceKey(id) : id]?.name || namedTitle(id),
    valueName: (key, value) => valueName(key, value, game),
  };
}

// The platform's own events in words; null leaves one out of the log.
function platformSentence(event, ctx) {
  const d = event.data || {};
  switch (event.type) {
    case "GameCreated": return "The game is set up.";
    case "ForkedFrom": return `This game is a fork of another, from its version ${d.version ?? "?"}.`;
    case "SeatTaken": return `${d.name || ctx.name(d.seat)} sits at seat ${d.seat + 1}.`;
    case "SeatClaimed": return null;
    case "ActionTaken": return null; // the game's own events say what the action did
    case "UndoRequested": return `${ctx.who(event.seat)} ${ctx.isYou(event.seat) ? "ask" : "asks"} to undo back to version ${d.to_version}.`;
    case "DrawOffered": return `${ctx.who(event.seat)} ${ctx.isYou(event.seat) ? "offer" : "offers"} to end the game with a shared result.`;
    case "DrawAnswered": return `${ctx.who(event.seat)} ${d.accept ? (ctx.isYou(event.seat) ? "agree" : "agrees") : (ctx.isYou(event.seat) ? "decline" : "declines")}.`;
    case "DrawAgreed": return "Every seat still in agreed: the game ends with a shared result.";
    case "UndoAnswered": return `${ctx.who(event.seat)} ${d.accept ? (ctx.isYou(event.seat) ? "agree" : "agrees") : (ctx.isYou(event.seat) ? "decline" : "declines")} to undo.`;
    case "UndoExpired": return "The undo request expired.";
    case "Rewound": return `Undone: the game is back at version ${d.to_version}.`;
    default: return undefined;
  }
}

// One line of the log: a sentence from the viewer's point of view (kinds/README.md),
// or null for an event left out (bookkeeping). A game event its kind does not describe
// is summed up generically and marked so (data-generic).
export function eventLine(event, game, kind, viewer = game.seat) {
  const ctx = makeCtx(game, {}, [], viewer);
  let text = lifecycleEventText(event, ctx.name, game);
  if (text) text = `${text}.`.replace(/\.\.$/, ".");
  let generic = false;
  if (text === null || text === undefined) text = platformSentence(event, ctx);
  if (text === undefined && kind.describe) text = kind.describe(event, ctx);
  if (text === undefined) {
    generic = true;
    const detail = genericEventText(event, ctx);
    const who = event.seat !== null && event.seat !== undefined ? `${ctx.who(event.seat)}: ` : "";
    text = `${who}${humanize(event.type).toLowerCase()}${detail ? ` (${detail})` : ""}.`;
    text = text.charAt(0).toUpperCase() + text.slice(1);
  }
  if (text === null || text === "") return null;
  return el("li", {
    class: ["event", `actor-${event.actor}`, event.seat !== null && event.seat !== undefined && ctx.isYou(event.seat) && "mine"],
    "data-version": event.version, "data-type": event.type, "data-seat": event.seat ?? "", "data-generic": generic ? "1" : null,
  },
  el("span", { class: "ev-text" }, text),
  event.actor === "timeout" ? el("small", { class: "timer-mark" }, " (by the turn timer)") : null);
}

export async function allEvents(gameId, token, until = Infinity) {
  const out = [];
  let after = 0;
  for (let i = 0; i < 200; i += 1) {
    const page = await api(`/v1/games/${encodeURIComponent(gameId)}/events?after=${after}&limit=1000`, { token });
    out.push(...page.events.filter((e) => e.version <= until));
    if (!page.events.length || page.next_after >= page.last_version || page.next_after >= until) break;
    after = page.next_after;
  }
  return out;
}

// The outcome: how the game ended in words (by its rules, a resignation, an abort, the
// clock, abandonment), the seats that left, the moves the turn timer made, and whether
// the result counts. `events`, when known, name the seat whose leaving ended it.
export function outcomePanel(game, events = []) {
  const o = game.outcome;
  if (!o) return null;
  const name = (i) => seatName(game.seats, i);
  const winners = new Set(o.winners || []);
  const described = describeEnding(game, name, events);
  const { ending, headline } = described;
  let detail = described.detail;
  if (ending === "rules") {
    // The kind's own words for how its rules ended it; else the outcome's reason, its
    // seats (numbered from 0 in the log) named.
    const km = kindModule(game.kind);
    const own = km.ending ? km.ending(game.view || {}, o, makeCtx(game, game.view || {}, [])) : null;
    detail = own || String(detail || "").replace(/\bseats? (\d+)((?: and \d+)*)/gi, (_, first, more) =>
      [first, ...(more.match(/\d+/g) || [])].map((i) => name(Number(i))).join(" and "));
    if (detail) detail = detail.charAt(0).toUpperCase() + detail.slice(1) + (/[.!?]$/.test(detail) ? "" : ".");
  }
  const timeouts = o.timeouts || game.timeouts || [];
  const anyTimer = timeouts.some((n) => n > 0);
  const left = new Set(o.left || []);
  const scored = (o.scores || []).length > 0;
  const rows = game.seats.map((s, i) => el("tr", { class: [winners.has(i) && "winner", left.has(i) && "left"], "data-seat": i },
    el("td", {}, name(i), winners.has(i) ? " ★" : "", s.left ? el("small", { class: "left-mark" }, ` (${LEFT_WORDS[s.left] || s.left})`) : null),
    scored ? el("td", {}, o.scores[i] ?? "—") : null,
    anyTimer ? el("td", {}, timeouts[i] ?? 0) : null));
  return el("section", { class: "panel outcome", "aria-label": "outcome", "data-ending": ending },
    el("h3", { "data-testid": "ending" }, headline),
    detail ? el("p", { "data-testid": "ending-detail" }, detail) : null,
    o.counts === false && ending !== "abort" ? el("p", { class: "muted small", "data-testid": "uncounted" }, "This result does not count for stats or ratings: no winner made a move of its own.") : null,
    ending === "abort" ? null : el("table", { class: "scores" },
      el("tr", {}, el("th", {}, "seat"), scored ? el("th", {}, "score") : null, anyTimer ? el("th", {}, "timer moves") : null), rows),
    game.seed ? el("p", { class: "seed" }, "Seed revealed: ", el("code", {}, game.seed)) : null);
}

// The seat a player holds in a game, asked with its key (null: none, or no player).
async function playerSeat(gameId, player) {
  if (!player) return null;
  try {
    const probe = await api(`/v1/games/${encodeURIComponent(gameId)}`, { token: player.key });
    return probe.seat ?? null;
  } catch (_) {
    return null; // the table itself says what is wrong
  }
}

// Each card and place on the board once (by its card id, else its ref): its node, where it
// lies (the chain of what holds it) and its box on the screen.
function spotsOnBoard(box) {
  const spots = new Map();
  for (const node of box.querySelectorAll("[data-card], [data-ref]")) {
    const key = node.dataset.card || node.dataset.ref;
    if (!spots.has(key)) spots.set(key, { node, where: holdersOf(node), box: node.getBoundingClientRect() });
  }
  return spots;
}

function holdersOf(node) {
  const chain = [];
  for (let n = node.parentElement; n && !n.classList.contains("board"); n = n.parentElement) chain.push(n.dataset.ref || n.dataset.seat || n.className);
  return chain.join(" / ");
}

// A moved card slides from its old box to its new one; a new one drops in.
function glide(now, was) {
  const frames = was
    ? [{ transform: `translate(${was.box.left - now.box.left}px, ${was.box.top - now.box.top}px)` }, { transform: "none" }]
    : [{ transform: "translateY(-.6rem) scale(.92)" }, { transform: "none" }];
  now.node.animate(frames, { duration: was ? 320 : 220, easing: "ease-out" });
}

export async function showTable(root, gameId, params) {
  const held = seatsHeld(gameId);
  const player = currentPlayer();
  const mySeat = await playerSeat(gameId, player);
  if (mySeat !== null) held[mySeat] = { token: player.key, name: player.name, player: true };
  const heldSeats = Object.keys(held).map(Number).sort((a, b) => a - b);
  let seat = params.get("seat") !== null && held[params.get("seat")] ? Number(params.get("seat")) : (mySeat !== null ? mySeat : (heldSeats.length ? heldSeats[0] : null));
  const token = () => (seat !== null && held[seat] ? held[seat].token : null);

  let game = null;
  let kindName = ""; // the registry's title, the name the lobby gave this kind
  let events = [];
  const boardState = { path: [] }; // what is selected on the board (boardplay.js); the list shows what its first uses
  let busy = false;
  let stream = null;
  let refreshTimer = null;
  let liveState = "connecting";
  let error = null;
  let rematchGame = null;
  let rematchTimer = null;
  let chatTimer = null;
  let drawnStatus = null;
  let readClock = null; // the seats' time left now, from the last answer (endings.js)
  let flagAsked = null; // the version at which a clock reached zero here and the table was asked again
  let confirming = null; // "resign" or "abort": the step that asks "are you sure?"
  let endingSent = false; // a resign or abort is on its way
  const composerPicks = new Map();
  const chat = chatPanel(gameId, () => ({
    seat,
    token: token() || (seat === null ? player?.key : null) || null,
    canPost: seat !== null || !!player,
    name: (i) => seatName(game?.seats, i),
  }));

  const header = el("div", { class: "table-head" });
  const boardBox = el("div", { class: "board-box", "aria-live": "off" });
  const actionsBox = el("section", { class: "panel actions", "aria-label": "your actions" });
  const sideBox = el("div", { class: "side" });
  const logList = el("ol", { class: "log", "aria-label": "event log", tabindex: "0" });
  const chainNote = el("p", { class: "chain-status muted small", "data-testid": "chain", role: "status" }, "Checking the hash chain…");
  const logBox = el("section", { class: "panel log-panel" }, el("h3", {}, "Event log"), chainNote, logList);
  let chain = new LiveChain();
  clear(root).appendChild(el("div", { class: "table" }, header, el("div", { class: "table-grid" },
    el("div", { class: "main-col" }, boardBox), el("div", { class: "side-col" }, actionsBox, sideBox, chat.node, logBox))));

  const kind = () => kindModule(game.kind);

  // Loads may overlap (an action's answer, a burst of events): only the newest
  // request's answer is drawn, and a table never goes back to an older version.
  let issued = 0;
  let applied = 0;
  async function load() {
    const ticket = ++issued;
    try {
      const got = await api(`/v1/games/${encodeURIComponent(gameId)}`, { token: token() });
      if (ticket < applied || (game && got.seat === game.seat && got.version < game.version)) return;
      applied = ticket;
      game = got;
      useTerms(game.kind, kindModule(game.kind).terms);
      readClock = game.clock ? clockReader(game.clock) : null;
      error = null;
      rematchGame = game.rematch ? await api(`/v1/games/${encodeURIComponent(game.rematch)}`).catch(() => rematchGame) : null;
    } catch (e) {
      error = e;
      if (e.status === 401 && seat !== null) { toast("This browser's seat token was refused; watching as a spectator."); seat = null; return load(); }
      if (game) { toast(`Could not refresh the table: ${e.message}`, "error"); setTimeout(scheduleRefresh, 1500); }
    }
    render();
    const newest = events.length ? events.at(-1).version : 0;
    if (game && newest > game.version) scheduleRefresh();
    if (game && drawnStatus !== game.status) {
      // The spectators' channel opens to the seats at the end; a seat switch reads anew.
      if (drawnStatus !== null) chat.reset();
      drawnStatus = game.status;
    }
    watchRematch();
  }

  // A seat by token hears of a rematch only by asking (a player hears it on its stream).
  function watchRematch() {
    clearTimeout(rematchTimer);
    if (!game || seat === null || held[seat]?.player) return;
    const waiting = (game.status === "finished" && (!rematchGame || rematchGame.status === "open")) || (game.status === "open" && game.rematch_of);
    if (waiting) rematchTimer = setTimeout(scheduleRefresh, 5000);
  }

  function scheduleRefresh() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(load, 120);
  }

  function undoState() {
    let pending = null;
    for (const e of events) {
      if (e.type === "UndoRequested") pending = { id: e.data.id, by: e.seat, to: e.data.to_version, expires: e.data.expires_at, answered: new Set(e.data.accepted || []) };
      else if (e.type === "UndoAnswered" && pending && e.data.id === pending.id) { if (e.data.accept) pending.answered.add(e.seat); else pending = null; }
      else if (["UndoExpired", "Rewound", "ActionTaken", "GameEnded", "SeedRevealed"].includes(e.type)) pending = null;
    }
    return pending;
  }

  // Drawn again on every answer and stream change; kept as drawn where it reads the same
  // (as the side panels are), so that a press on its links is not lost to a redraw.
  function renderHeader() {
    const you = seat !== null ? seatName(game.seats, seat) : null;
    const parts = [
      el("div", { class: "title-row" },
        el("h2", {}, kindName || game.kind),
        el("span", { class: ["pill", `status-${game.status}`] }, game.status),
        el("span", { class: "pill" }, `version ${game.version}`),
        el("span", { class: ["pill", `live-${liveState}`], title: "event stream" }, liveState === "live" ? "● live" : liveState),
        game.fair_deal ? null : el("span", { class: "pill warn" }, "fixed deal"),
        game.rated ? el("span", { class: "pill" }, "rated") : null,
        timeControlText(game) ? el("span", { class: "pill", "data-testid": "time-control" }, timeControlText(game)) : null,
        game.unlisted ? el("span", { class: "pill" }, "unlisted") : null,
        game.rematch_of ? el("a", { href: `#/game/${encodeURIComponent(game.rematch_of)}`, "data-testid": "rematch-of" }, "rematch of the last game") : null,
        game.status === "finished" ? el("a", { class: "button", href: `#/replay/${gameId}` }, "Open replay") : null,
        el("a", { href: `#/rules/${encodeURIComponent(game.kind)}`, "data-testid": "how-to-play" }, "How to play")),
      el("ul", { class: "seat-strip" }, game.seats.map((s) => el("li", {
        class: ["seat-chip", (game.to_act || []).includes(s.seat) && "to-act", s.seat === seat && "me", game.outcome?.winners?.includes(s.seat) && "winner", s.left && "left"],
        "data-seat": s.seat,
      }, s.player && s.name ? el("a", { href: `#/players/${encodeURIComponent(s.name)}`, class: "chip-name", title: `${s.name}'s profile and ratings` }, s.name) : seatName(game.seats, s.seat), s.bot && !s.left ? el("small", {}, ` ${s.bot}`) : null, s.account === "bot" ? el("small", { title: "A program playing over the API, declared as a bot" }, " bot account") : null, s.open ? el("small", {}, s.invite ? " by invite" : s.reserved_for ? (player && s.reserved_for === player.id ? " reserved for you" : " reserved") : " open") : null,
      (game.to_act || []).includes(s.seat) ? el("small", { class: "turn-mark" }, " ← to act") : null,
      s.left ? el("small", { class: "left-mark", "data-testid": `left-${s.seat}` }, ` ${LEFT_WORDS[s.left] || s.left}`) : null,
      s.left && game.status === "active" ? el("small", { class: "muted" }, ` (a ${s.bot || "greedy"} bot moves for it)`) : null,
      game.timeouts?.[s.seat] ? el("small", { class: "timer-mark", title: "moves the turn timer made for this seat" }, ` · ${game.timeouts[s.seat]} by the timer`) : null,
      game.clock ? el("span", { class: "clock", "data-testid": `clock-${s.seat}`, "data-seat": s.seat, role: "timer", "aria-label": `${seatName(game.seats, s.seat)}'s clock` }) : null))),
      heldSeats.length > 1 ? el("label", { class: "seat-switch" }, "Play as ",
        el("select", { onchange: (ev) => { seat = ev.target.value === "" ? null : Number(ev.target.value); boardState.path = []; restartStream(); } },
          heldSeats.map((s) => el("option", { value: s, selected: s === seat }, seatName(game.seats, s))),
          el("option", { value: "", selected: seat === null }, "spectator"))) : null,
      markTerms(el("p", { class: "whose-turn", role: "status" }, turnText(you)))];
    const fresh = el("div", {}, ...parts.filter(Boolean));
    tickClocks(fresh);
    redrawChanged(header, fresh);
  }

  // Each seat's clock, drawn again a few times a second between answers: a running clock
  // counts down from the last answer; one that reaches zero asks for the table again
  // once (the flag falls on the server, whose event then arrives).
  function tickClocks(box = header) {
    if (!game || !readClock) return;
    const running = new Set(game.status === "active" ? game.clock.running || [] : []);
    let zero = false;
    for (const node of box.querySelectorAll(".clock[data-seat]")) {
      const s = Number(node.dataset.seat);
      const left = readClock(s);
      const text = formatClock(left);
      if (node.textContent !== text) node.textContent = text;
      node.classList.toggle("running", running.has(s));
      node.classList.toggle("low", game.status === "active" && isLow(left, game.clock) && !game.seats[s]?.left);
      node.classList.toggle("flagged", left <= 0 || game.seats[s]?.left === "time");
      if (running.has(s) && left <= 0) zero = true;
    }
    if (zero && flagAsked !== game.version) {
      flagAsked = game.version;
      setTimeout(scheduleRefresh, 1500);
    }
  }
  const clockTimer = setInterval(() => tickClocks(), 100);

  function turnText(you) {
    if (game.status === "open" && game.rematch_of) return "A rematch: waiting for every player to accept it.";
    if (game.status === "open") return "Waiting for players to join the open seats.";
    if (game.status === "finished") return "The game is over.";
    const acting = game.to_act || [];
    if (seat !== null && acting.includes(seat) && !game.seats[seat]?.left) return `Your move, ${you}.${mayDo()}`;
    if (!acting.length) return "Resolving…";
    return `Waiting for ${acting.map((i) => seatName(game.seats, i)).join(", ")}.`;
  }

  // What the seat may do now, in one sentence, from the kinds of action the game lists:
  // "You may buy, advance or pass: ...". Every phase of every kind says it the same way.
  function mayDo() {
    const kinds = [...new Set((game.legal_actions || []).map((a) => humanize(a.type).toLowerCase()))];
    if (!kinds.length) return "";
    const listed = kinds.length === 1 ? kinds[0] : `${kinds.slice(0, -1).join(", ")} or ${kinds[kinds.length - 1]}`;
    return ` You may ${listed}: click a card or place on the board to see what it can do, or choose under Actions.`;
  }

  // Many actions of one type that differ in a few fields (a set of cards to mulligan,
  // the cards and end of an attack): pick each field's value as chips, then send the
  // one legal action that matches the picks.
  function composer(type, list, ctx) {
    const keys = [...new Set(list.flatMap((it) => Object.keys(it.a)))].filter((k) => k !== "type");
    if (!keys.length || list.some((it) => keys.some((k) => !(k in it.a)))) return null;
    const multi = new Set(keys.filter((k) => list.every((it) => Array.isArray(it.a[k]) && it.a[k].every((v) => typeof v === "string"))));
    const norm = (k, v) => (multi.has(k) ? JSON.stringify([...v].map(String).sort()) : JSON.stringify(v));
    const picks = composerPicks.get(type) || {};
    composerPicks.set(type, picks);
    for (const k of keys) if (!(k in picks)) picks[k] = multi.has(k) ? [...list[0].a[k]] : list[0].a[k];
    const match = () => list.find((it) => keys.every((k) => norm(k, it.a[k]) === norm(k, picks[k])));
    if (!match()) for (const k of keys) picks[k] = multi.has(k) ? [...list[0].a[k]] : list[0].a[k];
    const box = el("fieldset", { class: "action-group composer", "data-composer": type }, el("legend", {}, humanize(type)));
    const go = el("button", { type: "button", class: "action primary", "data-action-type": type });
    const refresh = () => {
      const found = match();
      go.disabled = busy || !found;
      go.textContent = found ? found.label : "Not a legal choice";
      if (found) go.dataset.actionIndex = found.i; else delete go.dataset.actionIndex;
      for (const chip of box.querySelectorAll(".chip")) {
        const k = chip.dataset.key; const v = JSON.parse(chip.dataset.value);
        chip.setAttribute("aria-pressed", String(multi.has(k) ? picks[k].includes(v) : JSON.stringify(picks[k]) === JSON.stringify(v)));
      }
    };
    for (const k of keys) {
      const values = multi.has(k) ? [...new Set(list.flatMap((it) => it.a[k]).map((v) => JSON.stringify(v)))].map((v) => JSON.parse(v))
        : [...new Set(list.map((it) => JSON.stringify(it.a[k])))].map((v) => JSON.parse(v));
      box.appendChild(el("div", { class: "chips", role: "group", "aria-label": humanize(k) }, el("span", { class: "stat-label" }, humanize(k)),
        values.map((v) => el("button", {
          type: "button", class: "chip", "data-key": k, "data-value": JSON.stringify(v), "aria-pressed": "false",
          onclick: () => {
            if (multi.has(k)) picks[k] = picks[k].includes(v) ? picks[k].filter((x) => x !== v) : [...picks[k], v];
            else picks[k] = v;
            refresh();
          },
        }, ctx.valueName(k, v)))));
    }
    go.addEventListener("click", () => { const found = match(); if (found) { composerPicks.delete(type); act(found.a); } });
    box.appendChild(go);
    refresh();
    return box;
  }

  function renderActions(ctx) {
    clear(actionsBox);
    const legal = game.legal_actions || [];
    actionsBox.appendChild(el("h3", {}, "Actions"));
    if (seat === null) { actionsBox.appendChild(el("p", { class: "muted" }, "You are watching. Join an open seat from the lobby to play.")); return; }
    if (game.seats[seat]?.left && game.status === "active") { actionsBox.appendChild(el("p", { class: "muted" }, "You left this game: a bot makes this seat's moves.")); return; }
    if (!legal.length) { actionsBox.appendChild(el("p", { class: "muted" }, game.status === "finished" ? "No more actions." : "Nothing to do until it is your turn.")); return; }
    const km = kind();
    const items = legal.map((a, i) => {
      const ordered = km.refs ? km.refs(a, ctx) : [...refsOf(a)];
      const refs = new Set([...refsOf(a), ...ordered]);
      return { a, i, refs, ordered, label: (km.label && km.label(a, ctx)) || genericLabel(a, ctx) };
    });
    const selected = boardState.path[0] ?? null;
    const shown = selected ? items.filter((it) => it.refs.has(selected)) : items;
    if (selected) {
      actionsBox.appendChild(el("p", { class: "filter-note" }, `Actions with the selected ${selected.includes(":") ? "place" : "card"} (${shown.length}) `,
        el("button", { type: "button", class: "link", onclick: () => { boardState.path = []; render(); } }, "show all")));
    }
    const groups = new Map();
    for (const it of shown) {
      if (!groups.has(it.a.type)) groups.set(it.a.type, []);
      groups.get(it.a.type).push(it);
    }
    for (const [type, list] of groups) {
      const composed = list.length > 10 ? composer(type, list, ctx) : null;
      actionsBox.appendChild(composed || el("fieldset", { class: "action-group" }, el("legend", {}, humanize(type)),
        list.map((it) => el("button", {
          type: "button", class: "action", disabled: busy, "data-action-index": it.i, "data-action-type": it.a.type,
          onclick: () => act(it.a),
        }, it.label))));
    }
    return items;
  }

  // The board's own controls (boardplay.js): the fallback list shows what the selection uses.
  function wireRefs(items) {
    if (!items || seat === null) return;
    const board = boardBox.querySelector(".board");
    if (!board) return;
    wireBoard(boardBox, board, items.map((it) => ({ ...it, refs: it.ordered })), {
      state: boardState, busy, onAct: act, apart: [actionsBox],
      onSelect: () => { render(); boardBox.querySelector(".board-menu .board-choice")?.focus(); },
    });
  }

  function invitePanel() {
    const codes = invitesOf(gameId);
    const open = game.seats.filter((s) => s.open && codes[s.seat]);
    if (game.status !== "open" || !open.length) return null;
    return el("section", { class: "panel invites", "aria-label": "invites" }, el("h3", {}, "Invite"),
      el("p", { class: "small" }, "Send this link (or the code) to the person you invite: it opens the seat once, for a week. Anyone who has it can take the seat."),
      open.map((s) => {
        const link = inviteLink(gameId, s.seat, codes[s.seat]);
        const code = `${gameId}/${s.seat}/${codes[s.seat]}`;
        return el("div", { class: "invite", "data-seat": s.seat },
          el("label", { for: `invite-${s.seat}` }, `Seat ${s.seat + 1}`),
          el("div", { class: "row" },
            el("input", { type: "text", readonly: true, id: `invite-${s.seat}`, class: "key-field", value: link, "data-testid": "invite-link", onfocus: (ev) => ev.target.select() }),
            copyButton(() => link, "Copy link", "copy-invite")),
          el("p", { class: "small muted" }, "Code: ", el("code", { "data-testid": "invite-code" }, code)));
      }));
  }

  // Who may answer the rematch here, and whether it has: on the finished game, this
  // table's seat (its seat in the rematch is one place earlier: the order rotates by
  // one); on the rematch while it is open, the player whose seat is reserved or taken
  // there, or a seat token of the game before. A seat taken in the rematch has accepted.
  function rematchAnswer() {
    if (game.rematch_of) {
      if (player) {
        if (game.seats.some((s) => s.player === player.id)) return { accepted: true };
        if (game.seats.some((s) => s.open && s.reserved_for === player.id)) return { from: game.rematch_of, token: player.key, accepted: false };
      }
      if (Object.keys(seatsHeld(gameId)).length) return { accepted: true };
      const before = seatsHeld(game.rematch_of);
      const first = Object.keys(before)[0];
      return first === undefined ? null : { from: game.rematch_of, token: before[first].token, accepted: false };
    }
    if (seat === null) return null;
    const n = game.seats.length;
    const there = rematchGame?.seats?.[(seat - 1 + n) % n];
    return { from: gameId, token: token(), accepted: !!there && !there.open, newSeat: (seat - 1 + n) % n };
  }

  async function rematch(button, answer) {
    button.disabled = true;
    try {
      const got = await api(`/v1/games/${encodeURIComponent(answer.from)}/rematch`, { method: "POST", token: answer.token, body: {} });
      if (got.token) keepSeat(got.rematch, got.seat, got.token, got.game?.seats?.[got.seat]?.name);
      toast(got.game?.status === "active" ? "The rematch begins." : "Rematch offered: waiting for the others to accept.");
      const target = `#/game/${encodeURIComponent(got.rematch)}?seat=${got.seat}`;
      if (location.hash === target) window.dispatchEvent(new HashChangeEvent("hashchange"));
      else location.hash = target;
    } catch (e) {
      toast(e.message, "error");
      button.disabled = false;
    }
  }

  function rematchPanel() {
    const answer = rematchAnswer();
    if (!answer) return null;
    const box = el("section", { class: "panel rematch", "aria-label": "rematch", "data-testid": "rematch" }, el("h3", {}, "Rematch"));
    const accept = (label) => el("button", { type: "button", class: "primary", "data-testid": "rematch-accept", onclick: (ev) => rematch(ev.currentTarget, rematchAnswer() || answer) }, label);
    if (game.rematch_of) {
      if (answer.accepted) box.appendChild(el("p", { class: "muted", "data-testid": "rematch-waiting" }, "You accepted; the game starts when every player has."));
      else box.append(el("p", {}, "A rematch of your last game: the same seats, in a new order, and a new deal."), accept("Accept the rematch"));
      return box;
    }
    if (!game.rematch) {
      box.append(el("p", { class: "small muted" }, "The same game and seats, in a new order, and a new deal."),
        el("button", { type: "button", class: "primary", "data-testid": "rematch-offer", onclick: (ev) => rematch(ev.currentTarget, rematchAnswer() || answer) }, "Offer a rematch"));
      return box;
    }
    const link = el("a", { href: `#/game/${encodeURIComponent(game.rematch)}?seat=${answer.newSeat}`, "data-testid": "rematch-open" }, "Go to the rematch");
    if (rematchGame && rematchGame.status !== "open") box.append(el("p", {}, "The rematch has started. "), link);
    else if (answer.accepted) box.append(el("p", { class: "muted", "data-testid": "rematch-waiting" }, "You are in the rematch; waiting for the others to accept. "), link);
    else box.append(el("p", { "data-testid": "rematch-offered" }, "A rematch is offered."), accept("Accept the rematch"));
    return box;
  }

  // Seats this visitor may take here: open to anyone, or reserved for this player (a
  // seat by invite opens only with its code, from the invite's link).
  function joinPanel() {
    if (game.status !== "open" || seat !== null || game.rematch_of) return null;
    const free = game.seats.filter((s) => s.open && !s.invite && (!s.reserved_for || s.reserved_for === player?.id));
    if (!free.length) return null;
    const name = el("input", { type: "text", id: "table-join-name", maxlength: 64, value: localStorage.getItem("tablestream:name") || "", placeholder: "your name" });
    const take = async (button, s) => {
      if (!player && !name.value.trim()) { toast("Type your name first.", "error"); name.focus(); return; }
      button.disabled = true;
      try {
        const joined = await takeSeat(gameId, s.seat, { name: name.value.trim() || null });
        const target = `#/game/${encodeURIComponent(gameId)}?seat=${joined.seat}`;
        if (location.hash === target) window.dispatchEvent(new HashChangeEvent("hashchange"));
        else location.hash = target;
      } catch (e) { toast(e.message, "error"); button.disabled = false; }
    };
    return el("section", { class: "panel take-seat", "aria-label": "take a seat" }, el("h3", {}, "Take a seat"),
      player ? el("p", { class: "small muted" }, `You sit as ${player.name}.`) : el("div", { class: "opt" }, el("label", { for: "table-join-name" }, "Your name"), name),
      el("div", { class: "row" }, free.map((s) => el("button", { type: "button", "data-testid": "take-seat", "data-seat": s.seat, onclick: (ev) => take(ev.currentTarget, s) },
        s.reserved_for ? `Take seat ${s.seat + 1} (kept for you)` : `Take seat ${s.seat + 1}`))));
  }

  // Resign and abort for the seat held here, each with a step that asks first. An abort
  // is allowed while a seat is open or until every seat has made a move of its own (the
  // log says which have); after that the panel says why not.
  function endPanel() {
    if (seat === null || !["open", "active"].includes(game.status) || (game.rematch_of && game.status === "open")) return null;
    const me = game.seats[seat];
    const box = el("section", { class: "panel end-game", "aria-label": "resign or abort", "data-testid": "end-game" }, el("h3", {}, "Resign or abort"));
    if (me?.left) {
      box.appendChild(el("p", { class: "muted", "data-testid": "you-left" }, `You left this game (${LEFT_WORDS[me.left] || me.left}); a bot makes this seat's moves.`));
      return box;
    }
    const moved = seatsThatMoved(events);
    const abortable = game.status === "open" || game.seats.some((s) => !moved.has(s.seat));
    const others = game.seats.filter((s) => s.seat !== seat && !s.left).map((s) => seatName(game.seats, s.seat));
    const cancel = el("button", { type: "button", class: "secondary", "data-testid": "end-cancel", onclick: () => { confirming = null; renderSide(); } }, "Cancel");
    if (confirming === "resign") {
      box.append(el("p", { "data-testid": "resign-question" }, others.length === 1 ? `Resign? ${others[0]} wins the game.` : "Resign? You leave the game; the others play on."),
        el("div", { class: "row" }, el("button", { type: "button", class: "danger", "data-testid": "resign-confirm", disabled: endingSent, onclick: () => endGame("resign") }, "Yes, resign"), cancel));
      return box;
    }
    if (confirming === "abort") {
      box.append(el("p", { "data-testid": "abort-question" }, "Abort? The game ends with no result and no rating change."),
        el("div", { class: "row" }, el("button", { type: "button", class: "danger", "data-testid": "abort-confirm", disabled: endingSent, onclick: () => endGame("abort") }, "Yes, abort"), cancel));
      return box;
    }
    const ask = (what) => () => { confirming = what; renderSide(); sideBox.querySelector(`[data-testid=${what}-confirm]`)?.focus(); };
    // An offer to end with a shared result: answered by every other seat still in; a move withdraws it.
    const offer = game.draw_offer;
    if (game.status === "active" && offer) {
      const mine = offer.by === seat;
      const agreed = offer.accepted.includes(seat);
      box.appendChild(el("div", { class: "draw-offer", role: "status", "data-testid": "draw-offer", "data-offer": offer.id },
        el("p", {}, mine ? "You offered to end the game with a shared result; waiting for the others." : `${seatName(game.seats, offer.by)} offers to end the game with a shared result${agreed ? "; you agreed." : "."}`),
        el("div", { class: "row" },
          !agreed ? el("button", { type: "button", "data-testid": "draw-accept", disabled: endingSent, onclick: () => endGame(`draw-offers/${encodeURIComponent(offer.id)}/accept`) }, "Agree") : null,
          el("button", { type: "button", class: "secondary", "data-testid": "draw-decline", disabled: endingSent, onclick: () => endGame(`draw-offers/${encodeURIComponent(offer.id)}/decline`) }, mine ? "Withdraw" : "Decline"))));
    }
    const botsIn = game.seats.some((s) => s.seat !== seat && s.bot && !s.left);
    box.append(el("div", { class: "row" },
      game.status === "active" ? el("button", { type: "button", class: "secondary", "data-testid": "resign", onclick: ask("resign") }, "Resign") : null,
      game.status === "active" && !offer && !botsIn ? el("button", { type: "button", class: "secondary", "data-testid": "draw-offer-make", disabled: endingSent, title: "Every other seat still in must agree; a move withdraws the offer", onclick: () => endGame("draw-offers") }, "Offer a draw") : null,
      el("button", { type: "button", class: "secondary", "data-testid": "abort", disabled: !abortable, "aria-describedby": abortable ? null : "abort-why", onclick: ask("abort") }, "Abort")));
    box.appendChild(el("p", { class: "muted small", id: "abort-why", "data-testid": "abort-note" }, abortable
      ? (game.status === "open" ? "A seat is still open: the game may be aborted, with no result." : "Until every seat has made a move, the game may be aborted, with no result.")
      : "Every seat has moved: the game can no longer be aborted; you may resign."));
    return box;
  }

  async function endGame(what) {
    if (endingSent) return;
    endingSent = true;
    renderSide();
    try {
      await api(`/v1/games/${encodeURIComponent(gameId)}/${what}`, { method: "POST", token: token() });
    } catch (e) {
      toast(e.message, "error");
    } finally {
      endingSent = false;
      confirming = null;
      await load();
    }
  }

  // The side panels, drawn again on every answer: where they read the same as drawn, the
  // nodes stay, so that a press under way as an answer arrives (the button replaced between
  // the pointer's down and up would lose the click) or a name being typed is not lost.
  // Their buttons read the table's state when pressed, never a value of the drawing.
  function renderSide() {
    const fresh = document.createElement("div");
    sidePanels(fresh);
    redrawChanged(sideBox, fresh);
  }

  function sidePanels(sideBox) {
    if (game.status === "finished") sideBox.appendChild(markTerms(outcomePanel(game, events)));
    const endGame = endPanel();
    if (endGame) sideBox.appendChild(endGame);
    const invites = invitePanel();
    if (invites) sideBox.appendChild(invites);
    const joinable = joinPanel();
    if (joinable) sideBox.appendChild(joinable);
    if (game.status === "finished" || (game.status === "open" && game.rematch_of)) {
      const panel = rematchPanel();
      if (panel) sideBox.appendChild(panel);
    }
    if (game.status !== "active" || seat === null || game.seats[seat]?.left) return;
    const pending = undoState();
    const box = el("section", { class: "panel undo" }, el("h3", {}, "Undo"));
    if (pending) {
      box.appendChild(el("p", {}, `${seatName(game.seats, pending.by)} asks to undo back to version ${pending.to}.`));
      if (pending.by !== seat && !pending.answered.has(seat)) {
        box.appendChild(el("div", { class: "row" },
          el("button", { type: "button", "data-undo": pending.id, onclick: (ev) => answerUndo(ev.currentTarget.dataset.undo, "accept") }, "Accept undo"),
          el("button", { type: "button", class: "secondary", "data-undo": pending.id, onclick: (ev) => answerUndo(ev.currentTarget.dataset.undo, "decline") }, "Decline")));
      } else box.appendChild(el("p", { class: "muted" }, "Waiting for the other players to answer."));
    } else {
      const offer = game.undo_offer || { to_version: null, reason: "Undo is not available." };
      if (offer.to_version) {
        box.appendChild(el("button", { type: "button", class: "secondary", "data-testid": "undo", "data-to": offer.to_version, onclick: (ev) => requestUndo(Number(ev.currentTarget.dataset.to)) }, "Ask to undo my last move"));
        box.appendChild(el("p", { class: "muted small" }, "The other players must agree (bots do)."));
      } else box.appendChild(el("p", { class: "muted", "data-testid": "undo-unavailable" }, offer.reason));
    }
    sideBox.appendChild(box);
  }

  function render() {
    if (error && !game) {
      clear(boardBox).appendChild(el("p", { class: "error" }, error.message));
      return;
    }
    if (!game) return;
    renderHeader();
    const view = game.view || {};
    const ctx = makeCtx(game, view, game.legal_actions || []);
    const before = spotsOnBoard(boardBox);
    clear(boardBox);
    try {
      boardBox.appendChild(kind().render(view, ctx));
    } catch (e) {
      console.error(e);
      boardBox.appendChild(el("p", { class: "error" }, `This view could not be drawn: ${e.message}`));
    }
    showLastMove(before);
    markScrollers(boardBox);
    const items = renderActions(ctx);
    // The player's move: the hand's dock (with the action bar) sticks to the window's foot.
    boardBox.classList.toggle("your-move", !!items?.length);
    wireRefs(items);
    // After the board's wiring: a term in a place it made a control is no tab stop.
    markTerms(boardBox);
    markTerms(actionsBox);
    renderSide();
    showChain(chain.state);
  }

  // What changed since the last version drawn: cards and places new to the board, or now
  // somewhere else on it, are marked as the last move, and glide from where they were
  // (a new one drops in), unless reduced motion is asked for. A drawing at the same
  // version (a selection) keeps the marks and moves nothing; the first drawing marks nothing.
  let drawnVersion = null;
  let lastMove = new Set();
  function showLastMove(before) {
    const after = spotsOnBoard(boardBox);
    if (drawnVersion !== null && game.version !== drawnVersion) {
      lastMove = new Set([...after].filter(([key, spot]) => before.get(key)?.where !== spot.where).map(([key]) => key));
      if (!matchMedia("(prefers-reduced-motion: reduce)").matches) for (const key of lastMove) glide(after.get(key), before.get(key));
    }
    drawnVersion = game.version;
    for (const key of lastMove) after.get(key)?.node.classList.add("last-move");
  }

  async function act(action) {
    if (busy) return;
    busy = true;
    for (const b of actionsBox.querySelectorAll("button.action")) b.disabled = true;
    try {
      await api(`/v1/games/${encodeURIComponent(gameId)}/actions`, {
        method: "POST", token: token(), body: { action, expected_version: game.version }, headers: { "Idempotency-Key": newKey() },
      });
      boardState.path = [];
      composerPicks.clear();
    } catch (e) {
      if (e.code === "stale_version") toast("The table moved on; here is the new position.");
      else toast(e.message, "error");
    } finally {
      busy = false;
      await load();
    }
  }

  async function requestUndo(toVersion) {
    try {
      const answer = await api(`/v1/games/${encodeURIComponent(gameId)}/undo-requests`, { method: "POST", token: token(), body: { to_version: toVersion }, headers: { "Idempotency-Key": newKey() } });
      toast(answer && answer.pending ? "Undo requested; waiting for the others." : "Undone.");
    } catch (e) {
      toast(e.status === 404 ? `Undo is not available: ${e.message}` : e.message, "error");
    }
    scheduleRefresh();
  }

  async function answerUndo(id, how) {
    try {
      await api(`/v1/games/${encodeURIComponent(gameId)}/undo-requests/${encodeURIComponent(id)}/${how}`, { method: "POST", token: token(), body: {}, headers: { "Idempotency-Key": newKey() } });
    } catch (e) {
      toast(e.message, "error");
    }
    scheduleRefresh();
  }

  // Every event's hash is recomputed and linked to the one before it as it arrives
  // (docs/verification.md, section 2); the head the server answers with must be the
  // chain's hash at its version.
  function checkChain(list) {
    const checking = chain;
    checking.push(list).then((state) => { if (checking === chain) showChain(state); });
  }

  function showChain({ verifiedTo, failure, unhashed, opened }) {
    const head = game?.head;
    const known = head && head.hash && head.version <= verifiedTo ? events.find((e) => e.version === head.version) : null;
    if (!failure && known && known.hash !== head.hash) {
      failure = { version: head.version, reason: "the head the server answered with is not the chain's hash at that version" };
    }
    if (!failure && !unhashed && verifiedTo === 0) return;
    if (failure) {
      chainNote.className = "chain-status error small";
      chainNote.textContent = `✗ The hash chain is broken at version ${failure.version}: ${failure.reason}.`;
    } else if (unhashed) {
      chainNote.className = "chain-status muted small";
      chainNote.textContent = "This game began before hashes were public: its chain is shown when it ends.";
    } else {
      chainNote.className = "chain-status ok small";
      chainNote.textContent = `✓ Chain verified to version ${verifiedTo}`;
      // The salts of this seat's own hidden values came with them: each opened its commitment.
      if (opened) {
        chainNote.append(el("span", { "data-testid": "openings", title: "Each card you were dealt or drew, and each move you sent, hashes with the salt the server gave you to the commitment the chain holds: the server cannot show you one card and record another." },
          ` · your cards match their commitments (${opened} value${opened === 1 ? "" : "s"} checked)`));
      }
    }
  }

  function addEvents(list) {
    const known = new Set(events.map((e) => e.version));
    const fresh = list.filter((e) => !known.has(e.version));
    if (!fresh.length) return;
    checkChain(fresh);
    events.push(...fresh);
    events.sort((a, b) => a.version - b.version);
    const atBottom = logList.scrollTop + logList.clientHeight >= logList.scrollHeight - 30;
    for (const e of fresh) {
      const line = eventLine(e, game, kind(), seat);
      if (line) logList.appendChild(markTerms(line, game.kind, logList));
    }
    while (logList.children.length > 400) logList.removeChild(logList.firstChild);
    if (atBottom) logList.scrollTop = logList.scrollHeight;
    if (game && events.at(-1).version > game.version) scheduleRefresh();
  }

  function restartStream() {
    if (stream) stream.stop();
    clearInterval(chatTimer);
    events = [];
    chain = new LiveChain();
    clear(logList);
    boot();
    chat.reset();
  }

  async function boot() {
    await load();
    if (game) { [kindName] = await Promise.all([kindTitle(game.kind), loadFaces(game.kind)]); render(); }
    if (!game) return;
    try { addEvents(await allEvents(gameId, token())); } catch (e) { toast(e.message, "error"); }
    renderSide(); // the undo panel reads the log, which the first drawing did not have yet
    const after = events.length ? events.at(-1).version : 0;
    let wasDown = false;
    stream = streamEvents(gameId, {
      token: token(), after,
      onEvent: (e) => { addEvents([e]); scheduleRefresh(); },
      onChat: (m) => chat.add(m),
      onState: (s) => {
        liveState = s === "closed" ? "ended" : s;
        if (game) renderHeader();
        if (s === "closed") {
          scheduleRefresh();
          // A finished game's stream ends, and its chat goes on: read it now and then.
          clearInterval(chatTimer);
          chatTimer = setInterval(() => chat.catchUp(), 10000);
        }
        if (s === "live" && wasDown) chat.catchUp();
        wasDown = s === "retrying";
      },
    });
  }

  // The player's stream: a turn, a start, an end or a rematch of this game (or of its
  // rematch) redraws the table; a chat message of this table joins the chat.
  function onNotice(ev) {
    const n = ev.detail || {};
    if (n.type === "chat" && n.game === gameId) { chat.add(n.message); return; }
    if (n.game === gameId || n.of === gameId || (game && (n.game === game.rematch || n.game === game.rematch_of))) scheduleRefresh();
  }
  window.addEventListener("tablestream:notice", onNotice);
  // The board's menu sits by its selection: drawn again when the window changes size.
  let resizeTimer = null;
  const onResize = () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(() => { if (game) render(); }, 150); };
  window.addEventListener("resize", onResize);

  boot();
  chat.reset();
  return () => {
    if (stream) stream.stop();
    clearTimeout(refreshTimer);
    clearTimeout(rematchTimer);
    clearInterval(chatTimer);
    clearInterval(clockTimer);
    chat.stop();
    window.removeEventListener("tablestream:notice", onNotice);
    window.removeEventListener("resize", onResize);
    clearTimeout(resizeTimer);
  };
}
