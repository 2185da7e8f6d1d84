// Cards drawn with CSS and inline SVG: the standard deck (with jokers), named
// cards of the games' own sets, and card backs. Every card that an action can
// name carries data-ref=<id>, which the table uses to make it clickable.

import { el, svg, titleCase } from "./dom.js";
import { markTerms } from "./terms.js";

const SUIT_PATHS = {
  H: '<path d="M50 90C22 67 6 50 6 31 6 16 17 6 30 6c9 0 16 5 20 13C54 11 61 6 70 6c13 0 24 10 24 25 0 19-16 36-44 59z"/>',
  D: '<path d="M50 4 86 50 50 96 14 50z"/>',
  S: '<path d="M50 5C36 25 8 40 8 60c0 13 10 21 22 21 7 0 13-3 16-8-1 10-5 16-13 22h34c-8-6-12-12-13-22 3 5 9 8 16 8 12 0 22-8 22-21 0-20-28-35-42-55z"/>',
  C: '<circle cx="50" cy="27" r="19"/><circle cx="27" cy="58" r="19"/><circle cx="73" cy="58" r="19"/><path d="M45 50h10c0 20 3 32 13 44H32c10-12 13-24 13-44z"/>',
};
const SUIT_NAMES = { H: "hearts", D: "diamonds", S: "spades", C: "clubs" };
const RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };

export function suitIcon(suit, cls = "") {
  return svg(`<svg viewBox="0 0 100 100" aria-hidden="true" focusable="false">${SUIT_PATHS[suit]}</svg>`, `suit suit-${suit} ${cls}`);
}

// "QH", "10S.1", "JK2.0" -> {rank, suit, deck} ; null when not a standard card.
export function parseStandard(id) {
  if (typeof id !== "string") return null;
  const joker = /^JK(\d*)(?:\.(\d+))?$/.exec(id);
  if (joker) return { rank: "JK", suit: null, deck: joker[2] ?? null, joker: joker[1] };
  const m = /^(10|[2-9AJQK])([SHDC])(?:\.(\d+))?$/.exec(id);
  return m ? { rank: m[1], suit: m[2], deck: m[3] ?? null } : null;
}

export function shortName(id) {
  const c = parseStandard(id);
  if (!c) return namedTitle(id);
  if (c.rank === "JK") return "Joker";
  return `${c.rank}${{ H: "♥", D: "♦", S: "♠", C: "♣" }[c.suit]}`;
}

export function longName(id) {
  const c = parseStandard(id);
  if (!c) return namedTitle(id);
  if (c.rank === "JK") return "Joker";
  return `${RANK_NAMES[c.rank] || c.rank} of ${SUIT_NAMES[c.suit]}`;
}

// "1-abyssal-leviathan-2" / "s0-regrowth-1" / "crop-field-06" -> "Abyssal Leviathan"
export function namedTitle(id) {
  if (typeof id !== "string") return String(id);
  let s = id.replace(/^s?\d+-/, "").replace(/-\d+$/, "");
  return titleCase(s);
}

export function standardCard(id, { small = false, ref = id, extra = null } = {}) {
  const c = parseStandard(id);
  if (!c) return namedCard(id, { ref });
  if (c.rank === "JK") {
    return el("div", { class: ["card", "std", "joker", small && "small"], "data-ref": ref, title: "Joker", "aria-label": "Joker" },
      el("span", { class: "corner" }, "JK"),
      svg('<svg viewBox="0 0 100 100" aria-hidden="true"><path d="M50 8l10 30h32L66 56l10 32-26-19-26 19 10-32L8 38h32z"/></svg>', "pip-big joker-star"),
      extra);
  }
  const red = c.suit === "H" || c.suit === "D";
  const face = ["J", "Q", "K"].includes(c.rank);
  return el("div", {
    class: ["card", "std", red ? "red" : "black", face && "face", small && "small"],
    "data-ref": ref, title: longName(id), "aria-label": longName(id),
  },
  el("span", { class: "corner" }, el("span", { class: "rank" }, c.rank), suitIcon(c.suit, "mini")),
  face ? el("span", { class: "face-mark" }, el("span", { class: "face-letter" }, c.rank), suitIcon(c.suit, "face-suit"))
    : suitIcon(c.suit, "pip-big"),
  el("span", { class: "corner bottom" }, el("span", { class: "rank" }, c.rank), suitIcon(c.suit, "mini")),
  extra);
}

function hue(text) {
  let h = 0;
  for (const ch of String(text)) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

const COLOURS = { red: "#c0392b", blue: "#2e6fb7", black: "#333", white: "#9aa0a6", green: "#2f8f46", yellow: "#c9a400", gold: "#b8860b" };

export function namedCard(id, { ref = id, title = null, kind = null, colour = null, lines = [], small = false, cls = null } = {}) {
  const name = title || namedTitle(id);
  const tint = colour && COLOURS[colour] ? COLOURS[colour] : `hsl(${hue(kind || name)} 45% 42%)`;
  return el("div", {
    class: ["card", "named", small && "small", cls], "data-ref": ref, title: [name, kind, ...lines].filter(Boolean).join(" · "),
    "aria-label": name, style: { "--tint": tint },
  },
  el("span", { class: "named-band" }, kind || ""),
  el("span", { class: "named-title" }, name),
  lines.length ? el("span", { class: "named-lines" }, lines.map((l) => el("span", {}, l))) : null);
}

export function cardBack(label = "hidden card", { small = false } = {}) {
  return el("div", { class: ["card", "back", small && "small"], role: "img", title: label, "aria-label": label });
}

export function pile(label, count, { top = null } = {}) {
  return el("div", { class: "pile", title: `${label}: ${count}` },
    top || (count > 0 ? cardBack(label, { small: true }) : el("div", { class: "card small empty" })),
    el("span", { class: "pile-label" }, `${label} `, el("b", {}, String(count))));
}

export function cardRow(ids, make = standardCard, { empty = "none" } = {}) {
  if (!ids || !ids.length) return el("div", { class: "row empty-note" }, empty);
  return el("div", { class: "row cards" }, ids.map((id) => (id === null ? cardBack() : make(id))));
}

const PIPS = {
  1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[25, 25], [50, 50], [75, 75]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

export function die(value, { colour = null, label = null, ref = null, cls = null } = {}) {
  const dots = (PIPS[value] || []).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9"/>`).join("");
  const tint = colour && COLOURS[colour] ? COLOURS[colour] : "#555";
  const node = svg(`<svg viewBox="0 0 100 100" role="img" aria-label="die showing ${value}"><rect x="4" y="4" width="92" height="92" rx="18" fill="${tint}"/><g fill="#fff">${dots}</g></svg>`, ["die", cls].filter(Boolean).join(" "));
  if (ref !== null) node.dataset.ref = ref;
  node.title = label || `die: ${value}`;
  return node;
}

// A card drawn from its face (GET /v1/kinds/{kind}/cards): a coloured band with its
// type, its name, its numbers as chips and its text. The whole face is in the title
// (hover) and in a dialog opened by the card's "i" button (tap).
export function faceCard(id, face, { ref = id, small = false, cls = null, extra = null } = {}) {
  if (!face) return namedCard(id, { ref, small, cls });
  const name = face.name || namedTitle(id);
  const stats = face.stats || [];
  const tint = face.colour && COLOURS[face.colour] ? COLOURS[face.colour] : `hsl(${hue(face.type || name)} 45% 42%)`;
  const summary = [name, face.type, stats.map((s) => `${s.label} ${s.value}`).join(", "), face.text].filter(Boolean).join(" · ");
  const info = el("button", {
    type: "button", class: "face-info", "aria-label": `about ${name}`, title: `about ${name}`,
    onclick: (ev) => { ev.stopPropagation(); showFace(id, face); },
    onkeydown: (ev) => ev.stopPropagation(),
  }, "i");
  const card = el("div", {
    class: ["card", "named", "face", small && "small", cls], "data-ref": ref, "data-card": id, title: summary,
    "aria-label": summary, style: { "--tint": tint },
  },
  el("span", { class: "named-band" }, face.type || ""),
  el("span", { class: "named-title" }, name),
  stats.length ? el("span", { class: "face-stats" }, stats.map((s) => el("span", { class: "face-stat", title: s.label },
    el("span", { class: "face-stat-label" }, s.label), " ", el("b", {}, String(s.value))))) : null,
  face.text && !small ? el("span", { class: "face-text" }, face.text) : null,
  info, extra);
  card.showFace = () => showFace(id, face); // the board's menu offers it once the card is a control
  return card;
}

function showFace(id, face) {
  document.querySelector("dialog.face-dialog")?.remove();
  const dialog = el("dialog", { class: "face-dialog", "aria-label": face.name || namedTitle(id) },
    el("h3", {}, face.name || namedTitle(id)),
    face.type ? el("p", { class: "muted" }, face.type) : null,
    (face.stats || []).length ? el("dl", { class: "face-dl" }, face.stats.flatMap((s) => [el("dt", {}, s.label), el("dd", {}, String(s.value))])) : null,
    face.text ? el("p", {}, face.text) : null,
    el("form", { method: "dialog" }, el("button", { type: "submit" }, "Close")));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.appendChild(markTerms(dialog));
  dialog.showModal();
}
