// Tutorials: for each kind, a game against the greedy bot set up from a stated position
// (every card order given as is, no shuffle: the game says it is not a fair deal), so the
// learner's first turns show one rule at work. Each position is the exact `options` of the
// request that creates it; the dealing order each kind applies to it is in its README
// ("Setting up a position"). The table shows the tutorial's note above the board.

import { api, currentPlayer, keepCreated, kindsList, newKey } from "./api.js";
import { clear, el, toast } from "./dom.js";

export const TUTORIALS = [
  {
    id: "siege-tombstones",
    kind: "fortress-siege",
    players: 2,
    title: "The highest Tombstone moves first",
    teaches: "Every Fortress shows its bottom card, the Tombstone, from the start, and the highest one opens the game. A short Winds of Fate game: one shared deck, 27 cards a Fortress.",
    note: "The bot's Tombstone is a Joker, the highest card there is, so the bot moves first; yours is the 2 of hearts. When your turn comes, draw three times: the top of your Fortress is clubs from the 2 up. Each card drawn thins your own Fortress, so draw only what you will use.",
    // games/fortress_siege/README.md, "Setting up a position"
    options: {
      winds_of_fate: true,
      decks: [
        ["2C.0", "3C.0", "4C.0", "5C.0", "6C.0", "7C.0", "8C.0", "9C.0", "10C.0", "JC.0", "QC.0", "KC.0", "AC.0",
          "2D.0", "3D.0", "4D.0", "5D.0", "6D.0", "7D.0", "8D.0", "9D.0", "10D.0", "JD.0", "QD.0", "KD.0", "AD.0",
          "2H.0"],
        ["3H.0", "4H.0", "5H.0", "6H.0", "7H.0", "8H.0", "9H.0", "10H.0", "JH.0", "QH.0", "KH.0", "AH.0",
          "2S.0", "3S.0", "4S.0", "5S.0", "6S.0", "7S.0", "8S.0", "9S.0", "10S.0", "JS.0", "QS.0", "KS.0", "AS.0",
          "JK1.0", "JK2.0"],
      ],
    },
  },
  {
    id: "siege-armed-king",
    kind: "fortress-siege",
    players: 2,
    title: "Arm a King and strike",
    teaches: "A character needs armor before it can be attacked, and armor and a weapon before it can attack. Build a King over two turns, then send him at the bot's Fortress.",
    note: "You move first. Turn 1: draw three times, for the King of hearts, a 9 and an 8. Turn 2: deploy the King, armor him with the 9, then arm him with the 8. Turn 3: attack the bot's Fortress: an 8 knocks eight cards off it, unless the bot blocks.",
    options: {
      winds_of_fate: true,
      first_player: 0,
      decks: [
        [
          "KH.0", "9S.0", "8D.0", "6H.0", "6C.0", "10D.0", "QH.0", "5S.0", "7C.0", "JH.0", "4D.0", "9C.0",
          "3S.0", "8H.0", "AH.0", "2D.0", "10S.0", "5H.0", "JK1.0", "7D.0", "4C.0", "KS.0", "2S.0", "6S.0",
          "3H.0", "9D.0", "QC.0"
        ],
        [
          "3C.0", "8C.0", "3D.0", "6D.0", "4H.0", "9H.0", "4S.0", "8S.0", "JC.0", "KC.0", "AC.0", "JD.0",
          "QD.0", "KD.0", "AD.0", "JS.0", "QS.0", "AS.0", "JK2.0", "5C.0", "10C.0", "5D.0", "2H.0", "7H.0",
          "10H.0", "7S.0", "2C.0"
        ],
      ],
    },
  },
  {
    id: "royals-choose-and-hide",
    kind: "fortress-royals",
    players: 2,
    title: "Choose who starts, and keep royals inside",
    teaches: "The highest card in the draw for first player lets its drawer choose who starts. Then build a hand whose royals sit away from its two ends, where attacks land.",
    note: "You drew the King and the bot a 2, so you choose who goes first: choose yourself. You are dealt the King and Queen of spades. Every card you draw after them goes to the left or the right end of your hand: keep the two royals in the middle, where an attack on an end reaches them last.",
    // games/fortress_royals/README.md, "Setting up a position"
    options: {
      deck: [
        "KS", "2H", "QS", "3H", "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C",
        "10C", "JC", "QC", "KC", "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D",
        "10D", "JD", "QD", "KD", "AH", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH",
        "QH", "KH", "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS",
      ],
    },
  },
  {
    id: "dragon-towers",
    kind: "dragon-fortress",
    players: 3,
    title: "Towers first",
    teaches: "Towers give your Estate its Fortress Power and shoot every dragon that walks past them. Start your row with one before the first dragon is called.",
    note: "Your hand holds a Guard Tower (2 shots), a Watch Tower (1 shot) and three Crop Fields. This turn: Stay (your row is empty), draw from the common supply, then place the Guard Tower at your Front Line. Crop Fields come after: their Estate Power is what lets you advance a phase.",
    // games/dragon_fortress/README.md, "Setting up a position"
    options: {
      deck: ["guard-tower-01", "guard-tower-02", "guard-tower-03", "watch-tower-01"],
    },
  },
  {
    id: "stomping-stash-then-burn",
    kind: "stomping-grounds",
    players: 2,
    title: "Stash, then burn",
    teaches: "Paying a cost only moves stashed cards to your junk, which goes back under your deck; burning is what gets rid of cards for good. Stash two, then spend them on a burn.",
    note: "Your luck card, a 6, beats the bot's 3: you lay the first realm and move first. Place your realms and your dragon, then in your reclaim phase play Stoke the Embers (it costs nothing and stashes 2). Once it resolves, pay Breath of Cinders' cost of 2 from your stash and burn 2 cards.",
    options: {
      decks: ["ember", "tide"],
      deck: [
        [
          "s0-stoke-the-embers-1", "s0-stoke-the-embers-2", "s0-breath-of-cinders-1", "s0-ember-tithe-1",
          "s0-red-dragonscale-1", "s0-furious-roar-1", "s0-burn-down-the-farm-1", "s0-charred-idol-1",
          "s0-ashfall-crag-1", "s0-ashfall-crag-2", "s0-ashfall-crag-3", "s0-smoldering-lair-1",
          "s0-smoldering-lair-2", "s0-cinderfield-town-1", "s0-cinderfield-town-2", "s0-cinderfield-town-3",
          "s0-charred-orchard-1", "s0-charred-orchard-2", "s0-charred-orchard-3", "s0-sulfur-springs-1",
          "s0-sulfur-springs-2", "s0-sulfur-springs-3", "s0-burn-down-the-farm-2", "s0-burn-down-the-farm-3",
          "s0-sack-the-granary-1", "s0-sack-the-granary-2", "s0-rampaging-fury-1", "s0-rampaging-fury-2",
          "s0-rampaging-fury-3", "s0-topple-the-watchtower-1", "s0-topple-the-watchtower-2",
          "s0-bully-the-bridgekeeper-1", "s0-bully-the-bridgekeeper-2", "s0-red-dragonscale-2",
          "s0-red-dragonscale-3", "s0-molten-crown-1", "s0-molten-crown-2", "s0-charred-idol-2",
          "s0-charred-idol-3", "s0-breath-of-cinders-2", "s0-breath-of-cinders-3", "s0-breath-of-cinders-4",
          "s0-dragonfire-torrent-1", "s0-dragonfire-torrent-2", "s0-dragonfire-torrent-3", "s0-furious-roar-2",
          "s0-furious-roar-3", "s0-furious-roar-4", "s0-scorch-the-fields-1", "s0-scorch-the-fields-2",
          "s0-stoke-the-embers-3", "s0-stoke-the-embers-4", "s0-spiteful-sparks-1", "s0-spiteful-sparks-2",
          "s0-spiteful-sparks-3", "s0-hoardbreaker-charge-1", "s0-hoardbreaker-charge-2", "s0-ember-tithe-2",
          "s0-ember-tithe-3", "s0-ember-tithe-4"
        ],
        [
          "s1-wave-of-oblivion-1", "s1-misty-scalespine-mountain-1", "s1-misty-scalespine-mountain-3",
          "s1-drowned-chapel-2", "s1-tidewater-village-1", "s1-tidewater-village-3", "s1-moonwell-grotto-2",
          "s1-fogbank-shoals-2", "s1-unravel-the-ward-1", "s1-unravel-the-ward-3", "s1-scry-the-deep-2",
          "s1-bind-the-storm-spirit-1", "s1-drown-the-ferry-1", "s1-outwit-the-hermit-1", "s1-azure-pearl-1",
          "s1-azure-pearl-3", "s1-tide-clock-2", "s1-seer-s-lantern-2", "s1-undertow-1", "s1-undertow-3",
          "s1-twist-of-fate-2", "s1-twist-of-fate-4", "s1-counterspell-of-tides-2", "s1-wave-of-oblivion-2",
          "s1-wave-of-oblivion-4", "s1-riptide-roam-2", "s1-whirlpool-1", "s1-whirlpool-3", "s1-deep-study-2",
          "s1-deep-study-4", "s1-sinkhole-2", "s1-misty-scalespine-mountain-2", "s1-drowned-chapel-1",
          "s1-drowned-chapel-3", "s1-tidewater-village-2", "s1-moonwell-grotto-1", "s1-fogbank-shoals-1",
          "s1-fogbank-shoals-3", "s1-unravel-the-ward-2", "s1-scry-the-deep-1", "s1-scry-the-deep-3",
          "s1-bind-the-storm-spirit-2", "s1-drown-the-ferry-2", "s1-outwit-the-hermit-2", "s1-azure-pearl-2",
          "s1-tide-clock-1", "s1-seer-s-lantern-1", "s1-seer-s-lantern-3", "s1-undertow-2",
          "s1-twist-of-fate-1", "s1-twist-of-fate-3", "s1-counterspell-of-tides-1",
          "s1-counterspell-of-tides-3", "s1-wave-of-oblivion-3", "s1-riptide-roam-1", "s1-riptide-roam-3",
          "s1-whirlpool-2", "s1-deep-study-1", "s1-deep-study-3", "s1-sinkhole-1"
        ],
      ],
    },
  },
  {
    id: "borne-paying-with-banners",
    kind: "dragoborne",
    players: 2,
    title: "Paying with banners",
    teaches: "A card's cost rests that many of your resources, and at least one of them must share the card's colour. Choose which banners pay, so two creatures come out on your first turn.",
    note: "You go first: keep your five cards (send none back). Your resources are two red banners and one yellow. Summon the Cinder Lancer (red, cost 2) paying with the two red banners: the yellow one is then left for the Dawnshield Acolyte (yellow, cost 1). Pay the Lancer with red and yellow, and the Acolyte has to wait.",
    options: {
      decks: ["emberguard", "tidecrypt"],
      deck: [
        [
          "cinder-lancer", "dawnshield-acolyte", "sunspear-sentry", "scorchling", "pyre-warden", "flare-volley",
          "bastion-rite", "magma-rupture", "rally-horn", "scorchling", "cinder-lancer", "ashen-berserker",
          "ashen-berserker", "ashen-berserker", "ashen-berserker", "bastion-rite", "bastion-rite",
          "bastion-rite", "blazefang-drake", "blazefang-drake", "blazefang-drake", "blazefang-drake",
          "cinder-lancer", "cinder-lancer", "dawnshield-acolyte", "dawnshield-acolyte", "dawnshield-acolyte",
          "flare-volley", "flare-volley", "flare-volley", "lumen-herald", "lumen-herald", "magma-rupture",
          "magma-rupture", "magma-rupture", "pyre-warden", "pyre-warden", "pyre-warden", "radiant-paladin",
          "radiant-paladin", "radiant-paladin", "radiant-paladin", "rally-horn", "rally-horn", "rally-horn",
          "scorchling", "scorchling", "sunspear-sentry", "sunspear-sentry", "sunspear-sentry"
        ],
        [
          "shade-stalker", "coral-skirmisher", "brinescribe-adept", "mistveil-heron", "hollow-warden",
          "abyssal-leviathan", "brinescribe-adept", "brinescribe-adept", "coral-skirmisher",
          "duskblade-assassin", "duskblade-assassin", "grasp-of-dusk", "hollow-warden", "hollow-warden",
          "mistveil-heron", "nightmaw-revenant", "nightmaw-revenant", "riptide-sentinel", "sepulcher-ghoul",
          "shade-stalker", "shade-stalker", "soul-rend", "tidal-insight", "tidal-insight", "tidecaller-sprite",
          "tidecaller-sprite", "undertow", "undertow", "abyssal-leviathan", "brinescribe-adept",
          "coral-skirmisher", "coral-skirmisher", "duskblade-assassin", "duskblade-assassin", "grasp-of-dusk",
          "hollow-warden", "mistveil-heron", "mistveil-heron", "nightmaw-revenant", "riptide-sentinel",
          "riptide-sentinel", "sepulcher-ghoul", "shade-stalker", "soul-rend", "soul-rend", "tidal-insight",
          "tidal-insight", "tidecaller-sprite", "tidecaller-sprite", "undertow"
        ],
      ],
      first_player: 0,
    },
  },
];

export function tutorialsOf(kind) {
  return TUTORIALS.filter((t) => t.kind === kind);
}

// The note a table shows above its board, for a game this tab set up (a tutorial, or a
// stated position from the lobby): kept for the tab only, gone once dismissed.
const NOTE = "tablestream:tutorial-note:";

export function keepNote(gameId, title, text) {
  try { sessionStorage.setItem(NOTE + gameId, JSON.stringify({ title, text })); } catch (_) { /* storage refused: no note */ }
}

function noteOf(gameId) {
  try { return JSON.parse(sessionStorage.getItem(NOTE + gameId) || "null"); } catch (_) { return null; }
}

// Called once the table is drawn: the note goes between the table's head and its board.
export function tutorialNote(box, gameId) {
  const note = noteOf(gameId);
  const table = box.querySelector(".table");
  if (!note || !table) return;
  const node = el("aside", { class: "note tutorial-note", "data-testid": "tutorial-note", "aria-label": note.title },
    el("div", { class: "tutorial-note-text" }, el("strong", { class: "tutorial-note-title" }, note.title), note.text),
    el("button", {
      type: "button", class: "secondary small", "data-testid": "dismiss-note",
      onclick: () => {
        sessionStorage.removeItem(NOTE + gameId);
        node.remove();
        document.getElementById("main")?.focus({ preventScroll: true }); // not lost with the button
      },
    }, "Dismiss"));
  table.insertBefore(node, table.querySelector(".table-grid"));
}

// The learner's seat is seat 0 (the signed-in player's own, else by name in this browser);
// the others are greedy bots.
export async function startTutorial(tutorial) {
  const me = currentPlayer();
  const learner = me ? { me: true } : { name: localStorage.getItem("tablestream:name") || "You" };
  const bots = Array.from({ length: tutorial.players - 1 }, () => ({ bot: "greedy" }));
  const body = { kind: tutorial.kind, players: [learner, ...bots], options: tutorial.options };
  const game = await api("/v1/games", { method: "POST", body, token: me?.key, headers: { "Idempotency-Key": newKey() } });
  const seat = keepCreated(game, me);
  keepNote(game.id, tutorial.title, tutorial.note);
  location.hash = `#/game/${encodeURIComponent(game.id)}${seat !== null ? `?seat=${seat}` : ""}`;
  return game;
}

function tutorialCard(tutorial) {
  const start = el("button", { type: "button", class: "primary", "data-testid": `start-${tutorial.id}`, "aria-label": `Start: ${tutorial.title}` }, "Start");
  start.addEventListener("click", async () => {
    start.disabled = true;
    try { await startTutorial(tutorial); } catch (e) {
      const more = e.problem?.problems ? `: ${[].concat(e.problem.problems).join("; ")}` : "";
      toast(`The tutorial could not start. ${e.message}${more}`, "error");
      start.disabled = false;
    }
  });
  return el("li", { class: "tutorial", "data-tutorial": tutorial.id },
    el("h4", {}, tutorial.title),
    el("p", {}, tutorial.teaches),
    el("p", { class: "muted small" }, `${tutorial.players} players: you and ${tutorial.players === 2 ? "the greedy bot" : `${tutorial.players - 1} greedy bots`}. A stated position, so not a fair deal.`),
    el("details", { class: "tutorial-position" }, el("summary", {}, "The position (the game's options)"),
      el("pre", {}, el("code", {}, JSON.stringify(tutorial.options)))),
    start);
}

// #/tutorials lists every kind's tutorials; #/tutorials/<kind> only that kind's.
export async function showTutorials(root, kind = null) {
  let kinds;
  try { kinds = await kindsList(); } catch (e) { clear(root).append(el("h2", {}, "Tutorials"), el("p", { class: "error" }, e.message)); return null; }
  const shown = kinds.filter((k) => !kind || k.key === kind);
  const nav = el("nav", { class: "rules-nav", "aria-label": "tutorials by game" },
    el("a", { href: "#/tutorials", "aria-current": kind ? null : "page" }, "All games"),
    kinds.map((k) => el("a", { href: `#/tutorials/${encodeURIComponent(k.key)}`, "aria-current": k.key === kind ? "page" : null }, k.title)));
  clear(root).appendChild(el("div", { class: "tutorials-page" }, el("h2", {}, "Tutorials"), nav,
    el("p", {}, "Each tutorial starts a game against the bot from a position set up in advance, so that your first moves show one rule at work. The table keeps a short note of what to try above the board."),
    shown.length ? null : el("p", { class: "error" }, `No game is called ${kind}.`),
    shown.map((k) => el("section", { class: "panel tutorials", "data-kind": k.key, "aria-label": `${k.title} tutorials` },
      el("h3", {}, k.title, " ", el("a", { class: "small", href: `#/rules/${encodeURIComponent(k.key)}` }, "How to play")),
      el("ul", { class: "tutorial-list" }, tutorialsOf(k.key).map(tutorialCard))))));
  return null;
}
