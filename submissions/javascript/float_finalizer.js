// Wrong: Math.imul in the FNV-1a loop, but `*` in the finalizer, whose
// products exceed 2^53 and lose their low bits: even h32("") is wrong.

function h32(text) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, 'utf8')) h = Math.imul(h ^ b, 16777619);
  h ^= h >>> 16;
  h = (h * 0x85ebca6b) % 4294967296;
  h ^= h >>> 13;
  h = (h * 0xc2b2ae35) % 4294967296;
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
