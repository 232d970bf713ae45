// Wrong twice: routes to the lowest score instead of the highest, and
// remove() moves on only after splicing a node out, so it loops forever
// once it keeps one. A test that routes before it removes gets a time
// limit, and still shows its first wrong route.

function h32(text) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, 'utf8')) h = Math.imul(h ^ b, 16777619);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

class Router {
  constructor(nodes) {
    this.nodes = [];
    for (const n of nodes) this.add(n);
  }

  add(node) {
    if (!this.nodes.includes(node)) this.nodes.push(node);
  }

  remove(node) {
    let i = 0;
    while (i < this.nodes.length) {
      if (this.nodes[i] === node) this.nodes.splice(i, 1);
    }
  }

  route(key) {
    let best = null;
    let bestScore = Infinity;
    for (const n of [...this.nodes].sort()) {
      const s = h32(n + ':' + key);
      if (s < bestScore) { best = n; bestScore = s; }
    }
    return best;
  }
}

module.exports = { Router, h32 };
