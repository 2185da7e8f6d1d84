// What every kind shares: generic action labels, the references an action makes
// (cards, places) so the board can make them clickable, and event summaries.

import { el, humanize } from "../dom.js";
import { parseStandard, shortName } from "../cards.js";

// The viewer's own hand, drawn at the foot of the board rather than in its seat: while it
// is the viewer's move the table keeps it, with the board's action bar (boardplay.js), stuck
// to the bottom of the window however far the board runs below it, so that what they play
// from is always in view (kinds/README.md). A kind puts it last in its board.
export function handDock(...children) {
  return el("section", { class: "hand-dock", "aria-label": "your hand", "data-testid": "hand-dock" }, ...children);
}

export function refKey(value) {
  if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "number")) return value.join(",");
  return typeof value === "string" ? value : null;
}

// Every string (or coordinate pair) an action names, nested lists included.
export function refsOf(action) {
  const out = new Set();
  const walk = (value, key) => {
    if (key === "type") return;
    const k = refKey(value);
    if (k !== null) { out.add(k); return; }
    if (Array.isArray(value)) value.forEach((v) => walk(v));
    else if (value && typeof value === "object") Object.entries(value).forEach(([kk, v]) => walk(v, kk));
  };
  walk(action);
  return out;
}

export function nameOf(value, ctx) {
  if (typeof value === "string") {
    if (parseStandard(value)) return shortName(value);
    // card-like ids ("s1-regrowth-2", "crop-field-06") read as names; anything else as sent
    return /^[a-z0-9]+(-[a-z0-9]+)+$/.test(value) ? ctx.cardName(value) : value;
  }
  if (Array.isArray(value)) {
    if (value.length === 2 && value.every((v) => typeof v === "number")) return `(${value[0]}, ${value[1]})`;
    return value.map((v) => nameOf(v, ctx)).join(" + ") || "nothing";
  }
  if (value === null || value === undefined) return "none";
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${humanize(k)} ${nameOf(v, ctx)}`).join(", ");
  return String(value);
}

const SEAT_KEYS = new Set(["seat", "opponent", "fortress", "target_seat", "player"]);

export function genericLabel(action, ctx) {
  const parts = [humanize(action.type || "act")];
  for (const [key, value] of Object.entries(action)) {
    if (key === "type") continue;
    if (SEAT_KEYS.has(key) && typeof value === "number") parts.push(`${key === "fortress" ? "fortress of" : humanize(key).toLowerCase()} ${ctx.name(value)}`);
    else parts.push(`${humanize(key).toLowerCase()} ${nameOf(value, ctx)}`);
  }
  return parts.join(" · ");
}

// A readable one-line summary of an event's data, short.
export function genericEventText(event, ctx) {
  const data = event.data || {};
  const bits = [];
  for (const [key, value] of Object.entries(data)) {
    if (bits.length >= 4) { bits.push("…"); break; }
    if (value === null || value === undefined || (typeof value === "object" && !Array.isArray(value))) continue;
    if (Array.isArray(value) && (value.length > 6 || value.some((v) => v && typeof v === "object"))) {
      bits.push(`${humanize(key).toLowerCase()}: ${value.length}`);
      continue;
    }
    if (SEAT_KEYS.has(key) && typeof value === "number") bits.push(`${humanize(key).toLowerCase()}: ${ctx.name(value)}`);
    else bits.push(`${humanize(key).toLowerCase()}: ${nameOf(value, ctx)}`);
  }
  return bits.join(", ");
}
