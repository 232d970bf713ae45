// The correct router every shape here exports in its own way (a helper
// module, not a submission).

function fnv(text, h = 0x811c9dc5) {
  for (const b of Buffer.from(text, 'utf8')) {
    h = Math.imul(h ^ b, 16777619) >>> 0;
  }
  return h;
}

function fmix(h) {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function h32(text) {
  return fmix(fnv(text));
}

class Router {
  constructor(nodes) {
    this.nodes = new Map(); // name -> FNV state of "name:"
    for (const n of nodes) this.add(n);
  }

  add(node) {
    if (!this.nodes.has(node)) this.nodes.set(node, fnv(node + ':'));
  }

  remove(node) {
    this.nodes.delete(node);
  }

  route(key) {
    let best = null;
    let bestScore = -1;
    for (const [name, state] of this.nodes) {
      const score = fmix(fnv(key, state));
      if (score > bestScore || (score === bestScore && Buffer.compare(Buffer.from(name), Buffer.from(best)) < 0)) {
        best = name;
        bestScore = score;
      }
    }
    return best;
  }
}

module.exports = { Router, h32 };
