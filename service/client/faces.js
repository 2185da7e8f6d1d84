// The card faces of each kind (GET /v1/kinds/{kind}/cards), fetched once per page and
// kept: public card data, the same in every game of the kind.

import { api } from "./api.js";

const loaded = new Map();
const pending = new Map();

export function loadFaces(kind) {
  if (loaded.has(kind)) return Promise.resolve(loaded.get(kind));
  if (!pending.has(kind)) {
    pending.set(kind, api(`/v1/kinds/${encodeURIComponent(kind)}/cards`)
      .then((got) => { loaded.set(kind, got.cards || {}); return loaded.get(kind); })
      .catch(() => { pending.delete(kind); return {}; }));
  }
  return pending.get(kind);
}

export function facesOf(kind) {
  return loaded.get(kind) || {};
}
