// Wrong in two steps at once, the way JavaScript hashes are most often
// written by hand: the loop reads UTF-16 code units (charCodeAt) instead of
// UTF-8 bytes, and every product is a floating-point `*` instead of
// Math.imul, which loses bits past 2^53 before `% 2 ** 32` reduces it.

function h32(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = (h * 16777619) % 4294967296;
  }
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
    for (const n of this.nodes) {
      const s = h32(n + ':' + key);
      if (s > bestScore || (s === bestScore && n < best)) { best = n; bestScore = s; }
    }
    return best;
  }
}

module.exports = { Router, h32 };
