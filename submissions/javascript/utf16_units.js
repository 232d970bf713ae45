// Wrong: hashes UTF-16 code units (charCodeAt) instead of UTF-8 bytes.
// Right on ASCII, wrong on other text.

function h32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
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
    for (const n of [...this.nodes].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))) {
      const s = h32(n + ':' + key);
      if (s > bestScore) { best = n; bestScore = s; }
    }
    return best;
  }
}

module.exports = { Router, h32 };
