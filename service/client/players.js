// Leaderboards per kind and a player's public profile: Glicko-2 ratings per kind with
// their history, and the latest finished games. Ratings are a read model the projector
// fills, so a page reads them again when a notice says a game ended.

import { api, currentPlayer, kindsList } from "./api.js";
import { clear, el, seatLabel, toast } from "./dom.js";

// Glickman's defaults for a player with no rated game yet.
const UNRATED = { rating: 1500, rd: 350 };

const fmt = (x) => String(Math.round(Number(x)));

function profileLink(name) {
  return name ? el("a", { href: `#/players/${encodeURIComponent(name)}` }, name) : el("span", { class: "muted" }, "(closed)");
}

function whenNoticed(refresh) {
  let timer = null;
  // Ratings move when the projector folds a finished rated game: a few reads after an end.
  const onNotice = (ev) => {
    if (ev.detail?.type !== "game_ended") return;
    clearTimeout(timer);
    let tries = 0;
    const again = () => { refresh(); if (++tries < 4) timer = setTimeout(again, 1500); };
    timer = setTimeout(again, 300);
  };
  window.addEventListener("tablestream:notice", onNotice);
  return () => { clearTimeout(timer); window.removeEventListener("tablestream:notice", onNotice); };
}

export async function showLeaderboard(root, kind) {
  let kinds = [];
  try { kinds = await kindsList(); } catch (e) { clear(root).appendChild(el("p", { class: "error" }, e.message)); return () => {}; }
  const chosen = kinds.find((k) => k.key === kind) ? kind : kinds[0]?.key;
  const me = currentPlayer();
  const select = el("select", { id: "board-kind", "aria-label": "game", onchange: () => { location.hash = `#/leaderboards/${encodeURIComponent(select.value)}`; } },
    kinds.map((k) => el("option", { value: k.key, selected: k.key === chosen }, k.title)));
  const body = el("div", { class: "board-rows" }, el("p", { class: "muted" }, "Loading…"));
  clear(root).appendChild(el("div", { class: "leaderboard-page" },
    el("div", { class: "title-row" }, el("h2", {}, "Leaderboard"), select,
      el("button", { type: "button", class: "secondary small", onclick: () => refresh() }, "Refresh")),
    el("p", { class: "muted small" }, "Glicko-2 ratings from rated games between players: a rating with its deviation (±), and the rated games played."),
    el("section", { class: "panel" }, body)));

  async function refresh() {
    try {
      const board = await api(`/v1/leaderboards/${encodeURIComponent(chosen)}?limit=100`);
      clear(body);
      if (!board.players.length) { body.appendChild(el("p", { class: "muted", "data-testid": "board-empty" }, "Nobody is rated in this game yet: play a rated game.")); return; }
      body.appendChild(el("table", { class: "scores leaderboard", "data-testid": "leaderboard", "data-kind": chosen },
        el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "player"), el("th", {}, "rating"), el("th", {}, "±"), el("th", {}, "games"))),
        el("tbody", {}, board.players.map((row) => el("tr", { class: me && row.player === me.id ? "me" : null, "data-player": row.name || "" },
          el("td", {}, String(row.rank)), el("td", {}, profileLink(row.name)),
          el("td", { class: "rating" }, fmt(row.rating)), el("td", { class: "rd" }, fmt(row.rd)), el("td", { class: "games-count" }, String(row.games)))))));
    } catch (e) {
      clear(body).appendChild(el("p", { class: "error" }, e.message));
    }
  }
  refresh();
  return whenNoticed(refresh);
}

function ratingCard(kind, title, r) {
  const history = r.history || [];
  return el("section", { class: "panel rating-card", "data-testid": `rating-${kind}`, "data-kind": kind },
    el("h3", {}, title, " ", el("a", { class: "small", href: `#/leaderboards/${encodeURIComponent(kind)}` }, "leaderboard")),
    el("p", { class: "rating-now" },
      el("b", { class: "rating" }, fmt(r.rating)), " ± ", el("span", { class: "rd" }, fmt(r.rd)), " · ",
      el("span", { class: "games-count" }, `${r.games} rated game${r.games === 1 ? "" : "s"}`)),
    history.length ? el("table", { class: "scores history" },
      el("thead", {}, el("tr", {}, el("th", {}, "after"), el("th", {}, "rating"), el("th", {}, "±"))),
      el("tbody", {}, history.slice(-10).reverse().map((h) => el("tr", {},
        el("td", {}, el("a", { href: `#/replay/${encodeURIComponent(h.game)}` }, new Date(h.at).toLocaleString())),
        el("td", {}, fmt(h.rating)), el("td", {}, fmt(h.rd)))))) : null);
}

export async function showProfile(root, name) {
  clear(root).appendChild(el("p", { class: "muted" }, "Loading the player…"));
  let kinds = [];
  try { kinds = await kindsList(); } catch (_) { kinds = []; }
  const titleOf = (k) => kinds.find((x) => x.key === k)?.title || k;
  const ratingsBox = el("div", { class: "ratings" });
  const gamesBox = el("section", { class: "panel" });
  const head = el("div", { class: "title-row" });
  clear(root).appendChild(el("div", { class: "profile-page" }, head,
    el("div", { class: "lobby" },
      el("div", { class: "lobby-main" }, el("h3", {}, "Ratings"), ratingsBox),
      el("div", { class: "lobby-side" }, gamesBox))));

  async function refresh() {
    let profile;
    let ratings;
    try {
      [profile, ratings] = await Promise.all([
        api(`/v1/players/${encodeURIComponent(name)}`),
        api(`/v1/players/${encodeURIComponent(name)}/ratings`),
      ]);
    } catch (e) {
      clear(head).appendChild(el("p", { class: "error" }, e.status === 404 ? `There is no player “${name}”.` : e.message));
      return;
    }
    const me = currentPlayer();
    clear(head).append(el("h2", { "data-testid": "profile-name" }, profile.name),
      me && me.id === profile.id ? el("span", { class: "pill" }, "you") : null,
      profile.bot ? el("span", { class: "pill", "data-testid": "bot-account", title: "A program playing over the API, declared as a bot" }, "bot account") : null,
      el("small", { class: "muted" }, profile.created_at ? `playing since ${new Date(profile.created_at).toLocaleDateString()}` : ""),
      el("button", { type: "button", class: "secondary small", onclick: () => refresh() }, "Refresh"));
    const rated = Object.entries(ratings.kinds || {});
    clear(ratingsBox);
    if (!rated.length) {
      ratingsBox.appendChild(el("p", { class: "muted", "data-testid": "unrated" },
        `No rated game yet: every player starts at ${UNRATED.rating} ± ${UNRATED.rd}.`));
    }
    for (const [kind, r] of rated) ratingsBox.appendChild(ratingCard(kind, titleOf(kind), r));
    const finished = profile.finished_games || { total: 0, latest: [] };
    clear(gamesBox).append(el("h3", {}, `Finished games (${finished.total})`),
      finished.latest.length ? el("ul", { class: "games" }, finished.latest.map((g) => {
        const seat = g.seats.find((s) => s.player === profile.id);
        const winners = g.outcome?.winners || [];
        const won = seat && winners.includes(seat.seat);
        const result = !won ? "lost" : winners.length > 1 ? "shared win" : "won";
        return el("li", { class: "game-item" },
          el("a", { href: `#/replay/${encodeURIComponent(g.id)}` }, titleOf(g.kind)), " ",
          g.rated ? el("span", { class: "pill" }, "rated") : null, " ",
          el("span", { class: ["pill", won ? "status-active" : null] }, result), " ",
          el("small", { class: "muted" }, g.seats.map((s) => seatLabel(s, "?")).join(" vs ")));
      })) : el("p", { class: "muted" }, "None yet."));
  }
  await refresh();
  return whenNoticed(() => refresh().catch((e) => toast(e.message, "error")));
}
