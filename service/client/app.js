// The reference client's entry point: a hash router over the lobby, the table, the
// replay, the player's account, invites, leaderboards, profiles, tournaments and tutorials, with the player's
// notifications in the header. It uses only the public REST API and its event streams.

import { currentPlayer } from "./api.js";
import { clear } from "./dom.js";
import { showLobby, showJoin } from "./lobby.js";
import { showTable } from "./table.js";
import { showReplay } from "./replay.js";
import { showAccount } from "./account.js";
import { showLeaderboard, showProfile } from "./players.js";
import { startNotices } from "./notify.js";
import { showRules } from "./rules.js";
import { showTournament, showTournaments } from "./tournaments.js";
import { showTutorials, tutorialNote } from "./tutorials.js";

const main = document.getElementById("main");
let leave = null;
let generation = 0;

// Each page draws into a box of its own: a page still loading when the next one opens
// (a sign-in that redirects, a quick click) is dropped, and its leave() still runs.
async function route() {
  const mine = ++generation;
  if (leave) { try { leave(); } catch (_) { /* already gone */ } leave = null; }
  const [path, query = ""] = (location.hash.replace(/^#/, "") || "/").split("?");
  const params = new URLSearchParams(query);
  const parts = path.split("/").filter(Boolean).map((p) => { try { return decodeURIComponent(p); } catch (_) { return p; } });
  const box = document.createElement("div");
  box.className = "page";
  clear(main).appendChild(box);
  let left;
  if (parts[0] === "game" && parts[1]) {
    left = await showTable(box, parts[1], params);
    tutorialNote(box, parts[1]);
  } else if (parts[0] === "replay" && parts[1]) left = await showReplay(box, parts[1], params);
  else if (parts[0] === "me") left = await showAccount(box);
  else if (parts[0] === "join" && parts[1]) left = await showJoin(box, parts[1], Number(parts[2]), parts[3] || "");
  else if (parts[0] === "leaderboards") left = await showLeaderboard(box, parts[1] || null);
  else if (parts[0] === "players" && parts[1]) left = await showProfile(box, parts[1]);
  else if (parts[0] === "rules") left = await showRules(box, parts[1] || null);
  else if (parts[0] === "tournaments" && parts[1]) left = await showTournament(box, parts[1]);
  else if (parts[0] === "tournaments") left = await showTournaments(box);
  else if (parts[0] === "tutorials") left = await showTutorials(box, parts[1] || null);
  else left = await showLobby(box);
  if (mine !== generation) {
    try { if (left) left(); } catch (_) { /* already gone */ }
    return;
  }
  leave = left;
  main.focus({ preventScroll: true });
}

function drawAccountLink() {
  const link = document.getElementById("account-link");
  const player = currentPlayer();
  if (link) link.textContent = player ? player.name : "Sign in";
}

startNotices(document.getElementById("bell-host"));
window.addEventListener("tablestream:player", drawAccountLink);
window.addEventListener("storage", (ev) => { if (ev.key === "tablestream:player") drawAccountLink(); });
drawAccountLink();
window.addEventListener("hashchange", route);
route();
