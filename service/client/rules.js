// How to play each kind (GET /v1/kinds/{kind}/rules): the game's own summary in the
// project's words, and its rulings, drawn from a small part of Markdown (headings,
// paragraphs, lists, tables, emphasis, code and links) into DOM nodes, never as HTML.

import { api } from "./api.js";
import { clear, el, playerCount } from "./dom.js";

// **bold**, *em*, `code`, [text](link): links only to this site's pages or the web.
function inline(text) {
  const out = [];
  // Emphasis only at word edges: an identifier such as turn_limit stays as written.
  const pattern = /(\*\*[^*]+\*\*|`[^`]+`|(?<!\w)\*[^*\s][^*]*\*(?!\w)|(?<!\w)_[^_\s][^_]*_(?!\w)|\[[^\]]+\]\([^)\s]+\))/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const t = m[0];
    if (t.startsWith("**")) out.push(el("strong", {}, t.slice(2, -2)));
    else if (t.startsWith("`")) out.push(el("code", {}, t.slice(1, -1)));
    else if (t.startsWith("[")) {
      const [, label, href] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(t);
      out.push(/^(https?:|#\/)/.test(href) ? el("a", { href }, label) : el("span", { class: "doc-ref" }, label));
    } else out.push(el("em", {}, t.slice(1, -1)));
    last = m.index + t.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function markdown(source) {
  const root = el("div", { class: "markdown" });
  const lines = String(source || "").replace(/\r/g, "").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i += 1; continue; }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      root.appendChild(el(`h${Math.min(6, heading[1].length + 2)}`, {}, inline(heading[2])));
      i += 1;
      continue;
    }
    if (line.startsWith("```")) {
      const code = [];
      i += 1;
      while (i < lines.length && !lines[i].startsWith("```")) { code.push(lines[i]); i += 1; }
      root.appendChild(el("pre", {}, el("code", {}, code.join("\n"))));
      i += 1;
      continue;
    }
    if (/^\s*\|/.test(line)) {
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) { rows.push(lines[i]); i += 1; }
      const cells = (row) => row.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
      const body = rows.filter((r) => !/^\s*\|[\s:|-]+\|\s*$/.test(r));
      root.appendChild(el("div", { class: "table-scroll" }, el("table", { class: "md-table" },
        el("thead", {}, el("tr", {}, cells(body[0]).map((c) => el("th", {}, inline(c))))),
        el("tbody", {}, body.slice(1).map((r) => el("tr", {}, cells(r).map((c) => el("td", {}, inline(c)))))))));
      continue;
    }
    const item = /^(\s*)([-*]|\d+\.)\s+(.*)$/;
    if (item.test(line)) {
      const ordered = /\d/.test(item.exec(line)[2]);
      const list = el(ordered ? "ol" : "ul");
      while (i < lines.length && (item.test(lines[i]) || (/^\s{2,}\S/.test(lines[i]) && list.lastChild))) {
        const m = item.exec(lines[i]);
        if (m) list.appendChild(el("li", {}, inline(m[3])));
        else list.lastChild.append(" ", ...inline(lines[i].trim()));
        i += 1;
      }
      root.appendChild(list);
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() && !/^(#{1,6}\s|```|\s*\||\s*([-*]|\d+\.)\s)/.test(lines[i])) { para.push(lines[i].trim()); i += 1; }
    root.appendChild(el("p", {}, inline(para.join(" "))));
  }
  return root;
}

export async function showRules(root, kind) {
  const { kinds } = await api("/v1/kinds");
  clear(root);
  const nav = el("nav", { class: "rules-nav", "aria-label": "game kinds" },
    kinds.map((k) => el("a", { href: `#/rules/${encodeURIComponent(k.key)}`, "aria-current": k.key === kind ? "page" : null }, k.title)));
  if (!kind) {
    root.append(el("h2", {}, "How to play"), nav,
      el("ul", { class: "kind-list" }, kinds.map((k) => el("li", {},
        el("h3", {}, el("a", { href: `#/rules/${encodeURIComponent(k.key)}` }, k.title)),
        el("p", {}, `${k.summary} (${playerCount(k.min_players, k.max_players)})`)))));
    return null;
  }
  let rules;
  try {
    rules = await api(`/v1/kinds/${encodeURIComponent(kind)}/rules`);
  } catch (e) {
    root.append(el("h2", {}, "How to play"), nav, el("p", { class: "error" }, e.message));
    return null;
  }
  const rulings = el("details", { class: "rulings", "data-testid": "rulings" },
    el("summary", {}, "Our rulings: how this project reads the rulebook where it is unclear"), markdown(rules.rulings));
  root.append(el("h2", {}, `How to play ${rules.title}`), nav,
    el("article", { class: "panel rules", "data-testid": "how-to-play" },
      rules.how_to_play ? markdown(rules.how_to_play) : el("p", { class: "muted" }, "No summary yet."),
      el("p", {}, el("a", { href: "#rulings", onclick: (ev) => { ev.preventDefault(); rulings.open = true; rulings.scrollIntoView(); } }, "Read our rulings"), " · ",
        el("a", { href: "#/" }, "Play it from the lobby"), " · ",
        el("a", { href: `#/tutorials/${encodeURIComponent(kind)}`, "data-testid": "kind-tutorials" }, `Tutorials for ${rules.title}`))),
    rulings);
  return null;
}
