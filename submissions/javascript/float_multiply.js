// Wrong: multiplies with `*` instead of Math.imul. The product exceeds 2^53,
// loses its low bits, and the hash drifts from the pinned one.

function h32(text) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, 'utf8')) h = ((h ^ b) * 16777619) % 2 ** 32;
  h = h >>> 0;
  h ^= h >>> 16;
  h = (h * 0x85ebca6b) % 2 ** 32;
  h ^= h >>> 13;
  h = (h * 0xc2b2ae35) % 2 ** 32;
  h ^= h >>> 16;
  return h >>> 0;
}

class Router {
  constructor(nodes) { this.nodes = new Set(nodes); }
  add(node) { this.nodes.add(node); }
  remove(node) { this.nodes.delete(node); }
  route(key) {
    let best = null;
    let bestScore = -1;
    for (const n of [...this.nodes].sort()) {
      const s = h32(n + ':' + key);
      if (s > bestScore) { best = n; bestScore = s; }
    }
    return best;
  }
}

module.exports = { Router, h32 };
