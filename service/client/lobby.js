// The lobby: the kinds and their rules summaries, a form to create a game of any
// kind (human, open and bot seats, options), open games to join, your games.

import { api, heldGames, keepSeat, newKey } from "./api.js";
import { clear, el, humanize, toast } from "./dom.js";

const LEVELS = ["random", "greedy", "ismcts"];

function seatRow(i, initial) {
  const type = el("select", { "aria-label": `seat ${i + 1} type`, name: `type-${i}`, "data-seat-type": i },
    ["human", "bot", "open"].map((t) => el("option", { value: t, selected: t === initial }, humanize(t))));
  const name = el("input", { type: "text", name: `name-${i}`, "aria-label": `seat ${i + 1} name`, placeholder: initial === "human" ? "your name" : "name (optional)", maxlength: 64, value: initial === "human" ? (localStorage.getItem("tablestream:name") || "") : "" });
  const level = el("select", { "aria-label": `seat ${i + 1} bot level`, name: `level-${i}`, "data-seat-level": i }, LEVELS.map((l) => el("option", { value: l, selected: l === "greedy" }, humanize(l))));
  const row = el("div", { class: "seat-row", "data-seat": i }, el("span", { class: "seat-no" }, `Seat ${i + 1}`), type, name, level);
  const sync = () => {
    level.hidden = type.value !== "bot";
    name.hidden = type.value === "open";
    name.placeholder = type.value === "human" ? "player name" : "bot name (optional)";
  };
  type.addEventListener("change", sync);
  sync();
  return row;
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

function createForm(kinds, onCreated) {
  const kindSelect = el("select", { id: "kind", name: "kind", "data-testid": "kind" }, kinds.map((k) => el("option", { value: k.key }, k.title === k.key ? k.key : `${k.title} (${k.key})`)));
  const count = el("input", { type: "number", id: "players", name: "players", min: 1, max: 16, value: 2 });
  const seatsBox = el("div", { class: "seat-rows" });
  const optsBox = el("div", { class: "opts" });
  const summary = el("p", { class: "kind-summary" });
  const form = el("form", { class: "panel create", "aria-label": "create a game" },
    el("h3", {}, "New game"),
    el("div", { class: "opt" }, el("label", { for: "kind" }, "Game"), kindSelect), summary,
    el("div", { class: "opt" }, el("label", { for: "players" }, "Players"), count),
    seatsBox, optsBox,
    el("button", { type: "submit", class: "primary", "data-testid": "create" }, "Create game"));

  const current = () => kinds.find((k) => k.key === kindSelect.value);
  function layoutSeats() {
    const k = current();
    const n = Math.max(k.min_players, Math.min(k.max_players, Number(count.value) || k.min_players));
    count.min = k.min_players; count.max = k.max_players; count.value = n;
    const before = [...seatsBox.querySelectorAll("[data-seat-type]")].map((s) => s.value);
    clear(seatsBox);
    for (let i = 0; i < n; i += 1) seatsBox.appendChild(seatRow(i, before[i] || (i === 0 ? "human" : "bot")));
  }
  function layoutKind() {
    const k = current();
    summary.textContent = `${k.summary} (${k.min_players}–${k.max_players} players)`;
    clear(optsBox);
    if (k.options.length) optsBox.appendChild(el("fieldset", {}, el("legend", {}, "Options"), k.options.map(optionField)));
    layoutSeats();
  }
  kindSelect.addEventListener("change", layoutKind);
  count.addEventListener("change", layoutSeats);
  layoutKind();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = form.querySelector("button[type=submit]");
    try {
      const players = [...seatsBox.querySelectorAll(".seat-row")].map((row) => {
        const type = row.querySelector("[data-seat-type]").value;
        const name = row.querySelector("input").value.trim();
        if (type === "open") return { open: true };
        if (type === "bot") return name ? { bot: row.querySelector("[data-seat-level]").value, name } : { bot: row.querySelector("[data-seat-level]").value };
        return { name: name || `Player ${Number(row.dataset.seat) + 1}` };
      });
      const first = players.find((p) => p.name && !p.bot);
      if (first) localStorage.setItem("tablestream:name", first.name);
      const body = { kind: kindSelect.value, players, options: readOptions(form) };
      button.disabled = true;
      const game = await api("/v1/games", { method: "POST", body, headers: { "Idempotency-Key": newKey() } });
      let mine = null;
      for (const s of game.seats) {
        if (s.token) { keepSeat(game.id, s.seat, s.token, s.name); if (mine === null) mine = s.seat; }
      }
      onCreated(game, mine);
    } catch (e) {
      const more = e.problem?.problems ? `: ${e.problem.problems.join("; ")}` : "";
      toast(`${e.message}${more}`, "error");
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

function gameItem(g, kinds, extra) {
  const title = kinds.find((k) => k.key === g.kind)?.title || g.kind;
  return el("li", { class: "game-item" },
    el("a", { href: `#/game/${g.id}` }, `${title}`), " ",
    el("span", { class: ["pill", `status-${g.status}`] }, g.status), " ",
    el("small", { class: "muted" }, g.seats.map((s) => s.name || (s.bot ? `${s.bot} bot` : "open")).join(", ")), " ",
    extra);
}

async function openGames(box, kinds) {
  const nameInput = el("input", { type: "text", id: "join-name", maxlength: 64, value: localStorage.getItem("tablestream:name") || "", placeholder: "your name" });
  clear(box).append(el("h3", {}, "Open games"), el("div", { class: "opt" }, el("label", { for: "join-name" }, "Join as"), nameInput));
  let page;
  try { page = await api("/v1/games?status=open&limit=50"); } catch (e) { box.appendChild(el("p", { class: "error" }, e.message)); return; }
  if (!page.games.length) { box.appendChild(el("p", { class: "muted" }, "No game has an open seat right now.")); return; }
  box.appendChild(el("ul", { class: "games" }, page.games.map((g) => gameItem(g, kinds, el("span", { class: "join" },
    g.seats.filter((s) => s.open).map((s) => el("button", {
      type: "button", class: "small", "data-join": `${g.id}:${s.seat}`,
      onclick: async () => {
        const name = nameInput.value.trim();
        if (!name) { toast("Type your name first.", "error"); nameInput.focus(); return; }
        try {
          const joined = await api(`/v1/games/${encodeURIComponent(g.id)}/seats/${s.seat}/join`, { method: "POST", body: { name } });
          localStorage.setItem("tablestream:name", name);
          keepSeat(g.id, joined.seat, joined.token, name);
          location.hash = `#/game/${g.id}?seat=${joined.seat}`;
        } catch (e) { toast(e.message, "error"); }
      },
    }, `Join seat ${s.seat + 1}`)))))));
}

async function myGames(box, kinds) {
  const held = heldGames().slice(0, 15);
  clear(box).appendChild(el("h3", {}, "Your games"));
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
  try { kinds = (await api("/v1/kinds")).kinds; } catch (e) { clear(root).appendChild(el("p", { class: "error" }, e.message)); return () => {}; }
  const open = el("section", { class: "panel" });
  const mine = el("section", { class: "panel" });
  const finished = el("section", { class: "panel" });
  const form = createForm(kinds, (game, seat) => { location.hash = `#/game/${game.id}${seat !== null ? `?seat=${seat}` : ""}`; });
  clear(root).appendChild(el("div", { class: "lobby" },
    el("div", { class: "lobby-main" }, form, el("section", { class: "panel kinds" }, el("h3", {}, "The games"),
      el("ul", { class: "kind-list" }, kinds.map((k) => el("li", {}, el("h4", {}, k.title, " ", el("small", { class: "muted" }, `${k.key} · ${k.min_players}–${k.max_players} players`)), el("p", {}, k.summary)))))),
    el("div", { class: "lobby-side" }, mine, open, finished,
      el("button", { type: "button", class: "secondary", onclick: () => openGames(open, kinds) }, "Refresh open games"))));
  openGames(open, kinds);
  myGames(mine, kinds);
  finishedGames(finished, kinds);
  return () => {};
}
