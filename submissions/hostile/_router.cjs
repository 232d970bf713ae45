// A correct router the hostile JavaScript programs build on (not graded by
// itself), as _router.py is for the Python ones.

function h32(text) {
  let h = 2166136261;
  for (const b of Buffer.from(text, 'utf8')) h = Math.imul(h ^ b, 16777619) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h = (h ^ (h >>> 13)) >>> 0;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

class Router {
  constructor(nodes) { this.nodes = new Set(nodes); }
  add(node) { this.nodes.add(node); }
  remove(node) { this.nodes.delete(node); }
  route(key) {
    let best = null;
    let bestScore = -1;
    for (const n of this.nodes) {
      const s = h32(n + ':' + key);
      if (s > bestScore || (s === bestScore && n < best)) { best = n; bestScore = s; }
    }
    return best;
  }
}

module.exports = { Router, h32 };
