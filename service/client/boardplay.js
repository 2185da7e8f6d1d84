// Play on the board: every legal action is reached by clicking what it uses. An
// action's refs (the kind's `refs`, kinds/README.md) are the board elements a player
// picks in order: the first is selected (a card in hand, a place), the rest are its
// targets. Selecting highlights the targets and dims the rest, and a menu by the
// selection names every action that goes on from there; a target that leaves one
// action plays it. Actions that use nothing on the board sit on the board's action bar.
// The table's action list stays as the keyboard fallback.

import { el } from "./dom.js";

const MENU_MAX = 14;
const MENU_GAP = 4; // px between the selection and its menu, and from the window's edge
const MENU_MIN_HEIGHT = 120; // px: a menu's list is never cut shorter than this to fit

// A part of the board wider than the window scrolls sideways inside it (the page itself
// stays put); a line above it says so, since a cut-off column gives no sign that more
// lies beyond it. Checked after each drawing, as the width of a part depends on the view.
export function markScrollers(box) {
  for (const node of box.querySelectorAll(".board *")) {
    const sideways = ["auto", "scroll"].includes(getComputedStyle(node).overflowX);
    if (!sideways || node.scrollWidth <= node.clientWidth + 1) continue;
    node.classList.add("scrolls");
    node.setAttribute("tabindex", "0"); // a scrolled region is reached by keyboard too
    node.before(el("p", { class: "scroll-cue", "data-testid": "scroll-cue" }, "Wider than the window: scroll sideways to see the rest →"));
  }
}

// Each item: {a, i, refs: [ref, ...], label}. Refs past the first one not drawn on the
// board are dropped, so every action stays reachable from what is drawn.
export function reachable(items, board) {
  const drawn = new Set([...board.querySelectorAll("[data-ref]")].map((n) => n.dataset.ref));
  return items.map((it) => {
    const refs = [];
    for (const r of it.refs) { if (!drawn.has(r)) break; refs.push(r); }
    return { ...it, refs };
  });
}

const startsWith = (refs, path) => path.length <= refs.length && path.every((r, k) => refs[k] === r);

// `state` lives across drawings ({path: [...]}) ; `onAct(action)` sends one; `apart`: other
// controls the menu must leave in view (the table's list of actions).
export function wireBoard(box, board, rawItems, { state, busy, onAct, onSelect, apart = [] }) {
  box.querySelector(".board-bar")?.remove();
  box.querySelector(".board-menu")?.remove();
  const items = reachable(rawItems, board);
  let candidates = items.filter((it) => it.refs.length && startsWith(it.refs, state.path));
  if (state.path.length && !candidates.length) { state.path = []; candidates = items.filter((it) => it.refs.length); }

  const bar = items.filter((it) => !it.refs.length);
  if (bar.length) {
    // Beside the hand, in its dock, where the kind draws one: in view on the player's move.
    const dock = board.querySelector(".hand-dock");
    (dock || box).prepend(el("div", { class: "board-bar", role: "toolbar", "aria-label": "moves on the table", "data-testid": "board-bar" },
      bar.map((it) => choiceButton(it, busy, onAct))));
  }

  const byRef = new Map();
  for (const node of board.querySelectorAll("[data-ref]")) {
    if (!byRef.has(node.dataset.ref)) byRef.set(node.dataset.ref, []);
    byRef.get(node.dataset.ref).push(node);
  }
  const depth = state.path.length;
  const next = new Map(); // ref -> the action types it leads to
  for (const it of candidates) {
    if (it.refs.length <= depth) continue;
    const r = it.refs[depth];
    if (!next.has(r)) next.set(r, new Set());
    next.get(r).add(it.a.type);
  }
  if (depth) board.classList.add("choosing");

  const select = (ref, ev) => {
    ev.stopPropagation();
    ev.preventDefault();
    const at = state.path.indexOf(ref);
    if (at >= 0) state.path = state.path.slice(0, at); // picking a chosen one again steps back
    else if (depth && next.has(ref)) state.path = [...state.path, ref];
    else state.path = [ref];
    const left = items.filter((it) => it.refs.length && startsWith(it.refs, state.path));
    const done = left.filter((it) => it.refs.length === state.path.length);
    if (state.path.length > 1 && left.length === 1 && done.length === 1 && !busy) {
      state.path = [];
      onAct(done[0].a);
      return;
    }
    onSelect(state.path[0] ?? null);
  };

  for (const [ref, nodes] of byRef) {
    const chosen = state.path.includes(ref);
    const target = next.has(ref);
    const starts = !depth ? next.has(ref) : items.some((it) => it.refs[0] === ref);
    for (const node of nodes) {
      if (chosen) node.classList.add("selected");
      if (depth && target) node.classList.add("target");
      if (depth && !target && !chosen) node.classList.add("dimmed");
      if (!(target || chosen || starts)) continue;
      node.classList.add("playable");
      // A control holds no other control: the card's own "i" gives way to "About" in the menu.
      for (const inner of node.querySelectorAll(".face-info")) inner.remove();
      node.dataset.actionTypes = [...(next.get(ref) || new Set(items.filter((it) => it.refs[0] === ref).map((it) => it.a.type)))].join(" ");
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      if (chosen) node.setAttribute("aria-pressed", "true");
      node.addEventListener("click", (ev) => select(ref, ev));
      node.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") select(ref, ev); });
    }
  }

  if (!depth) return;
  const anchor = byRef.get(state.path.at(-1))?.[0];
  const complete = candidates.filter((it) => it.refs.length === depth);
  const further = candidates.filter((it) => it.refs.length > depth);
  const listed = [...complete, ...further].slice(0, MENU_MAX);
  const cancel = () => { state.path = []; onSelect(null); };
  const menu = el("div", { class: "board-menu", role: "menu", "aria-label": "what to do with the selection", "data-testid": "board-menu",
    onkeydown: (ev) => { if (ev.key === "Escape") { ev.stopPropagation(); cancel(); } } },
  listed.map((it) => choiceButton(it, busy, onAct, "menuitem")),
  further.length ? el("p", { class: "board-menu-note" }, candidates.length > MENU_MAX
    ? `${candidates.length - listed.length} more: pick a highlighted target on the board.` : "Or pick a highlighted target on the board.") : null,
  // The foot of the menu stays in its box when its list scrolls: Cancel is never out of reach.
  el("div", { class: "board-menu-foot", role: "none" },
    anchor?.showFace ? el("button", { type: "button", class: "link board-about", role: "menuitem",
      onclick: (ev) => { ev.stopPropagation(); anchor.showFace(); } }, `About ${anchor.querySelector(".named-title")?.textContent || "this card"}`) : null,
    el("button", { type: "button", class: "link board-cancel", role: "menuitem", onclick: cancel }, "Cancel")));
  box.appendChild(menu);
  place(menu, anchor, box, board, apart);
}

function choiceButton(it, busy, onAct, role = null) {
  return el("button", {
    type: "button", class: "board-choice", role, disabled: busy, "data-action-index": it.i, "data-action-type": it.a.type,
    onclick: (ev) => { ev.stopPropagation(); onAct(it.a); },
  }, it.label);
}

// Where the menu goes: wholly inside the window, its list scrolling when the window is too
// short for it, and over none of what answering it takes: the selection, the targets lit
// for it, the hand's dock with the action bar (stuck to the window's foot on the player's
// move) and the controls ``apart`` from the board. Of the places tried (beside the
// selection, and clear of each of those boxes, at each edge of the window), the one
// covering least of them wins, then the one cut least short, then the nearest the
// selection. The page itself never scrolls: a menu whose Cancel lies below the window's
// edge leaves a player stuck, and one that jumps the page away loses what they looked at.
const COVER = { anchor: 1000, target: 10, dock: 10 }; // the weight of a pixel covered
const CUT = 0.5; // the weight of a pixel of the menu's list cut off (it scrolls instead)
const FAR = 20; // the weight of a pixel between the menu and the selection

function place(menu, anchor, box, board, apart) {
  if (!anchor) return;
  const root = document.documentElement;
  const win = { left: MENU_GAP, top: MENU_GAP, right: root.clientWidth - MENU_GAP, bottom: root.clientHeight - MENU_GAP };
  const at = anchor.getBoundingClientRect();
  const keep = [{ r: at, w: COVER.anchor }];
  for (const n of board.querySelectorAll("[data-ref].target, [data-ref].selected")) if (n !== anchor) keep.push({ r: n.getBoundingClientRect(), w: COVER.target });
  for (const n of [...box.querySelectorAll(".hand-dock, .board-bar"), ...apart]) keep.push({ r: n.getBoundingClientRect(), w: COVER.dock });
  const shown = keep.filter(({ r }) => r.bottom > win.top && r.top < win.bottom && r.right > win.left && r.left < win.right);

  menu.style.maxHeight = "none";
  const width = Math.min(menu.offsetWidth || 240, win.right - win.left);
  menu.style.width = `${width}px`;
  const natural = menu.offsetHeight;
  const tallest = win.bottom - win.top;
  // Its whole list if it fits, else the room there is above or below each box to keep clear.
  const rooms = [at, ...shown.map(({ r }) => r)].flatMap((r) => [r.top - MENU_GAP - win.top, win.bottom - r.bottom - MENU_GAP]);
  const heights = [...new Set([natural, tallest, ...rooms].map((h) => Math.round(Math.max(Math.min(natural, MENU_MIN_HEIGHT), Math.min(natural, h)))))];
  const xs = [at.left, at.right - width, at.right + MENU_GAP, at.left - MENU_GAP - width, win.left, win.right - width];
  const clampX = (x) => Math.max(win.left, Math.min(x, win.right - width));

  let best = null;
  for (const h of heights) {
    const tops = [at.bottom + MENU_GAP, at.top - MENU_GAP - h, at.top, win.top, win.bottom - h];
    for (const { r } of shown) tops.push(r.bottom + MENU_GAP, r.top - MENU_GAP - h);
    for (const x0 of xs) {
      const x = clampX(x0);
      for (const t0 of tops) {
        const top = Math.max(win.top, Math.min(t0, win.bottom - h));
        const spot = { left: x, top, right: x + width, bottom: top + h };
        const covered = shown.reduce((sum, { r, w }) => sum + w * shared(spot, r), 0);
        const cost = covered + CUT * (natural - h) * width + FAR * distance(spot, at);
        if (!best || cost < best.cost) best = { cost, spot, h };
      }
    }
  }
  const outer = box.getBoundingClientRect();
  menu.style.maxHeight = `${best.h}px`;
  menu.style.left = `${best.spot.left - outer.left}px`;
  menu.style.top = `${best.spot.top - outer.top}px`;
}

// The area two boxes share, in square pixels.
function shared(a, b) {
  return Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
}

// The distance between two boxes, in pixels (0 when they touch or overlap).
function distance(a, b) {
  const dx = Math.max(0, a.left - b.right, b.left - a.right);
  const dy = Math.max(0, a.top - b.bottom, b.top - a.bottom);
  return Math.hypot(dx, dy);
}
