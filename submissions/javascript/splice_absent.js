// Wrong: removes with `splice(indexOf(node), 1)`. For a node that is not
// there indexOf is -1, and splice(-1, 1) removes the last node added, whose
// keys then move for no reason.

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
    this.nodes.splice(this.nodes.indexOf(node), 1);
  }

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
