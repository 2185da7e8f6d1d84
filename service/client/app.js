// The reference client's entry point: a hash router over the lobby, the table
// and the replay. It uses only the public REST API and its event stream.

import { clear, el } from "./dom.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { showReplay } from "./replay.js";

const main = document.getElementById("main");
let leave = null;

async function route() {
  if (leave) { try { leave(); } catch (_) { /* already gone */ } leave = null; }
  const [path, query = ""] = (location.hash.replace(/^#/, "") || "/").split("?");
  const params = new URLSearchParams(query);
  const parts = path.split("/").filter(Boolean);
  clear(main);
  if (parts[0] === "game" && parts[1]) leave = await showTable(main, decodeURIComponent(parts[1]), params);
  else if (parts[0] === "replay" && parts[1]) leave = await showReplay(main, decodeURIComponent(parts[1]), params);
  else leave = await showLobby(main);
  main.focus({ preventScroll: true });
}

window.addEventListener("hashchange", route);
route();
