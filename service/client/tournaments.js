// Tournaments: the list, one tournament's standings and pairings (each game linked), and
// for a signed-in player, a form to create one, enter, withdraw and start. Pairings are a
// worker's: the page reads the tournament again every few seconds while it runs.

import { api, currentPlayer, kindsList } from "./api.js";
import { clear, el, toast } from "./dom.js";

const REFRESH_MS = 4000;

const statusWords = { registering: "open for entries", running: "under way", finished: "finished" };

export async function showTournaments(root) {
  const me = currentPlayer();
  const list = el("div", { class: "tournament-list" }, el("p", { class: "muted" }, "Loading…"));
  let kinds = [];
  try { kinds = await kindsList(); } catch (_) { /* the form is left out */ }
  const form = me && kinds.length ? createForm(kinds) : el("p", { class: "muted" }, "Sign in to create or enter a tournament.");
  clear(root).appendChild(el("div", { class: "tournaments-page" },
    el("h2", {}, "Tournaments"),
    el("p", { class: "muted small" }, "Swiss: each round pairs players of like standing who have not met. Arena: whoever is free is paired again at once until the time is up. A win is a point, a shared result splits it, ties go by Buchholz (the points of everyone you met)."),
    el("section", { class: "panel" }, list), el("section", { class: "panel" }, form)));
  try {
    const page = await api("/v1/tournaments?limit=50");
    clear(list);
    if (!page.tournaments.length) list.appendChild(el("p", { class: "muted" }, "No tournament yet."));
    else list.appendChild(el("ul", { "data-testid": "tournaments" }, page.tournaments.map((t) => el("li", {},
      el("a", { href: `#/tournaments/${encodeURIComponent(t.id)}` }, `${t.kind}: ${t.format === "arena" ? `arena, ${t.minutes} minutes` : `${t.rounds} rounds`}, ${t.seats} seats`), " ",
      el("small", { class: "muted" }, statusWords[t.status] || t.status)))));
  } catch (e) {
    clear(list).appendChild(el("p", { class: "error" }, e.message));
  }
  return () => {};
}

function createForm(kinds) {
  const kind = el("select", { name: "kind", "aria-label": "game" }, kinds.map((k) => el("option", { value: k.key }, k.title)));
  const format = el("select", { name: "format", "aria-label": "format" }, el("option", { value: "swiss" }, "Swiss: rounds"), el("option", { value: "arena" }, "Arena: minutes"));
  const rounds = el("input", { type: "number", name: "rounds", min: "1", max: "20", value: "3", "aria-label": "rounds" });
  const minutes = el("input", { type: "number", name: "minutes", min: "1", max: "1440", value: "30", "aria-label": "minutes" });
  const roundsLabel = el("label", {}, "rounds ", rounds);
  const minutesLabel = el("label", { hidden: true }, "minutes ", minutes);
  format.addEventListener("change", () => { roundsLabel.hidden = format.value !== "swiss"; minutesLabel.hidden = format.value !== "arena"; });
  const seats = el("input", { type: "number", name: "seats", min: "2", max: "256", value: "8", "aria-label": "seats" });
  const fill = el("select", { name: "fill", "aria-label": "bots filling the seats left" },
    el("option", { value: "" }, "no bots"), ["random", "greedy", "ismcts"].map((level) => el("option", { value: level, selected: level === "random" }, `${level} bots fill the seats left`)));
  const submit = async (ev) => {
    ev.preventDefault();
    try {
      const body = { kind: kind.value, format: format.value, seats: Number(seats.value), fill: fill.value || null };
      if (format.value === "swiss") body.rounds = Number(rounds.value); else body.minutes = Number(minutes.value);
      const made = await api("/v1/tournaments", { method: "POST", body, token: currentPlayer()?.key });
      location.hash = `#/tournaments/${encodeURIComponent(made.id)}`;
    } catch (e) { toast(e.message, "error"); }
  };
  return el("form", { class: "tournament-form", onsubmit: submit },
    el("h3", {}, "Create a tournament"), kind, format, roundsLabel, minutesLabel, el("label", {}, "seats ", seats), fill,
    el("button", { type: "submit" }, "Create"));
}

export async function showTournament(root, id) {
  let timer = null;
  const body = el("div", {}, el("p", { class: "muted" }, "Loading…"));
  clear(root).appendChild(el("div", { class: "tournament-page" }, body));

  const act = (path, method, done) => async () => {
    try { await api(`/v1/tournaments/${encodeURIComponent(id)}${path}`, { method, token: currentPlayer()?.key }); if (done) toast(done); refresh(); }
    catch (e) { toast(e.message, "error"); }
  };

  async function refresh() {
    clearTimeout(timer);
    let t;
    try { t = await api(`/v1/tournaments/${encodeURIComponent(id)}`); }
    catch (e) { clear(body).appendChild(el("p", { class: "error" }, e.message)); return; }
    const me = currentPlayer();
    const entered = me && t.registered.some((r) => r.id === me.id);
    const controls = [];
    if (me && t.status === "registering") {
      controls.push(entered
        ? el("button", { type: "button", class: "secondary", "data-testid": "withdraw-tournament", onclick: act("/entries/me", "DELETE", "Withdrawn.") }, "Withdraw")
        : el("button", { type: "button", "data-testid": "enter-tournament", onclick: act("/entries", "POST", "Entered.") }, "Enter"));
      if (t.creator === me.id) controls.push(el("button", { type: "button", "data-testid": "start-tournament", onclick: act("/start", "POST", "Started: the first round is being paired.") }, "Start"));
    }
    clear(body).append(
      el("h2", {}, t.format === "arena" ? `${t.kind}: arena, ${t.minutes} minutes` : `${t.kind}: Swiss, ${t.rounds} rounds`),
      el("p", { "data-testid": "tournament-status" }, `${statusWords[t.status] || t.status}; ${t.format === "arena" ? (t.ends_at ? `ends ${new Date(t.ends_at).toLocaleTimeString()}; wave ${t.round}` : "not started") : `round ${t.round} of ${t.rounds}`}; ${t.registered.length} entered of ${t.seats} seats${t.fill ? `, ${t.fill} bots fill the rest at the start` : ""}.`),
      el("div", { class: "controls" }, controls),
      t.standings.length ? el("table", { class: "scores standings", "data-testid": "standings" },
        el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "entrant"), el("th", {}, "points"), el("th", { title: "The points of everyone this entrant met" }, "Buchholz"), el("th", {}, "played"))),
        el("tbody", {}, t.standings.map((row) => el("tr", { class: me && row.entrant === me.id ? "me" : null },
          el("td", {}, String(row.rank)),
          el("td", {}, row.entrant.startsWith("bot:") ? row.name : el("a", { href: `#/players/${encodeURIComponent(row.name)}` }, row.name)),
          el("td", {}, String(row.points)), el("td", {}, String(row.buchholz)), el("td", {}, String(row.played)))))) : null,
      t.pairings.length ? el("section", { class: "pairings" }, t.pairings.slice().reverse().map((round) => el("div", {},
        el("h3", {}, t.format === "arena" ? `Wave ${round.round}` : `Round ${round.round}`),
        el("ul", {}, round.tables.map((table) => el("li", {}, el("a", { href: `#/game/${encodeURIComponent(table.game)}` }, table.entrants.join(" vs ")))),
          round.byes.map((name) => el("li", { class: "muted" }, `${name}: a bye`)))))) : null);
    if (t.status === "running") timer = setTimeout(refresh, REFRESH_MS);
  }
  await refresh();
  return () => clearTimeout(timer);
}
