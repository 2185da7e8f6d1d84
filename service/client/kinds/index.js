// The renderer and action labels of each game kind; unknown kinds fall back to
// a generic outline of the view, so a new kind is playable before it is pretty.

import { el, humanize } from "../dom.js";
import royals from "./fortress_royals.js";
import siege from "./fortress_siege.js";
import dragonFortress from "./dragon_fortress.js";
import dragoborne from "./dragoborne.js";
import stomping from "./stomping_grounds.js";

function outline(value, depth = 0) {
  if (value === null || value === undefined) return el("span", { class: "muted" }, "—");
  if (Array.isArray(value)) {
    if (!value.length) return el("span", { class: "muted" }, "none");
    if (value.every((v) => v === null || typeof v !== "object")) return el("span", {}, value.map((v) => (v === null ? "?" : String(v))).join(", "));
    return el("ol", {}, value.map((v) => el("li", {}, outline(v, depth + 1))));
  }
  if (typeof value === "object") {
    return el("dl", { class: "outline" }, Object.entries(value).flatMap(([k, v]) => [el("dt", {}, humanize(k)), el("dd", {}, outline(v, depth + 1))]));
  }
  return el("span", {}, String(value));
}

const generic = {
  render(view) { return el("div", { class: "board generic" }, outline(view)); },
  label() { return null; },
};

const KINDS = {
  "fortress-royals": royals,
  "fortress-siege": siege,
  "dragon-fortress": dragonFortress,
  dragoborne,
  "stomping-grounds": stomping,
};

export function kindModule(key) {
  return KINDS[key] || generic;
}
