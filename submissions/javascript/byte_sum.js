// Wrong: a toy hash, the sum of the bytes. The same node wins every key.

function h32(text) {
  let sum = 0;
  for (const b of Buffer.from(text, 'utf8')) sum += b;
  return sum >>> 0;
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
