// Wrong: the FNV-1a loop is the widely copied `(hash * 16777619) >>> 0`,
// a floating-point product past 2^53, while the finalizer, written from
// the statement, uses Math.imul: h32("") is right, longer texts drift.

function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = (hash * 16777619) >>> 0;
  }
  return hash;
}

function fmix32(h) {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function h32(text) {
  return fmix32(fnv1a(text));
}

class Router {
  constructor(nodes) { this.nodes = [...new Set(nodes)]; }
  add(node) { if (!this.nodes.includes(node)) this.nodes.push(node); }
  remove(node) { this.nodes = this.nodes.filter((n) => n !== node); }
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
