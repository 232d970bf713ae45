// Wrong: the finalizer's second product is written with `*` (its first
// uses Math.imul). No known mistake is this alone; its own h32 shows the
// finalizer's last shift is there, so it must not be told it is missing.
function h32(text) {
  let h = 2166136261;
  for (const b of Buffer.from(text, 'utf8')) { h ^= b; h = Math.imul(h, 16777619); }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = (h * 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

class Router {
  constructor(nodes) { this.nodes = new Set(nodes); }
  add(node) { this.nodes.add(node); }
  remove(node) { this.nodes.delete(node); }
  route(key) {
    let best = null, bestScore = null;
    for (const n of this.nodes) {
      const s = h32(n + ':' + key);
      if (best === null || s > bestScore || (s === bestScore && n < best)) { best = n; bestScore = s; }
    }
    return best;
  }
}
module.exports = { Router, h32 };
