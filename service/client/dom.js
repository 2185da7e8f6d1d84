// A tiny DOM builder: el("div", {class: "x", onclick}, child, "text", [more]).

export function el(tag, attrs = {}, ...children) {
  const node = tag.includes(":") ? document.createElementNS("http://www.w3.org/2000/svg", tag.split(":")[1]) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

export function svg(markup, cls = "") {
  const span = document.createElement("span");
  span.className = `svg ${cls}`.trim();
  span.innerHTML = markup; // only ever our own constant markup
  return span;
}

// Puts ``fresh``'s children in ``box`` in place of its own, but keeps every node drawn that
// reads the same: an element whose tag and attributes are unchanged stays and only its
// children are looked at in turn, so that a press under way (the pointer down on a link
// or button that a redraw would replace before it comes up) or a field being typed in is
// not lost when something beside it changes (the live pill, a seat's turn mark).
export function redrawChanged(box, fresh) {
  if (fresh.innerHTML === box.innerHTML) return;
  const drawn = [...box.childNodes];
  const wanted = [...fresh.childNodes];
  if (drawn.length !== wanted.length) {
    clear(box).append(...wanted);
    return;
  }
  drawn.forEach((node, index) => {
    const next = wanted[index];
    if (node.isEqualNode(next)) return;
    if (node.nodeType === Node.ELEMENT_NODE && sameElement(node, next)) redrawChanged(node, next);
    else node.replaceWith(next);
  });
}

function sameElement(node, next) {
  if (next.nodeType !== Node.ELEMENT_NODE || node.tagName !== next.tagName) return false;
  if (node.attributes.length !== next.attributes.length) return false;
  return [...node.attributes].every((attribute) => next.getAttribute(attribute.name) === attribute.value);
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// A seat as a list shows it: its name (a bot account's says so), the server's bot, or `empty`.
export function seatLabel(s, empty = "open") {
  if (s.name) return s.account === "bot" ? `${s.name} (bot account)` : s.name;
  return s.bot ? `${s.bot} bot` : empty;
}

// How many play a kind, as a person says it: "2 players" for a fixed count, "2–4 players" otherwise.
export function playerCount(min, max) {
  return min === max ? `${min} player${min === 1 ? "" : "s"}` : `${min}–${max} players`;
}

export function humanize(word) {
  const s = String(word).replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").trim().toLowerCase();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function titleCase(word) {
  return String(word).replace(/[_-]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

export function section(title, ...children) {
  return el("section", { class: "zone" }, el("h3", {}, title), ...children);
}

export function stat(label, value, cls) {
  return el("span", { class: ["stat", cls] }, el("span", { class: "stat-label" }, label), " ", el("b", {}, value));
}

// A short message in the polite live region at the foot of the page.
export function toast(message, tone = "info") {
  const box = document.getElementById("toast");
  if (!box) return;
  const item = el("div", { class: ["toast", `toast-${tone}`], role: tone === "error" ? "alert" : null }, message);
  box.appendChild(item);
  setTimeout(() => item.remove(), tone === "error" ? 7000 : 3500);
}
