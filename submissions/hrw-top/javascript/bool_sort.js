'use strict';
// Wrong: sorts with a comparator that returns a boolean. A sort reads a
// comparator's result as negative, zero or positive; `a[0] < b[0]` is
// never negative, so every pair looks in order and nothing moves: the
// nodes stay in the order they were added.

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
    this.nodes = new Set(nodes);
  }

  top(key, n) {
    const scored = [...this.nodes].map((node) => [h32(key + '|' + node), node]);
    scored.sort((a, b) => a[0] < b[0]);
    return scored.slice(0, n).map(([, node]) => node);
  }

  route(key) {
    return this.top(key, 1)[0] ?? null;
  }

  add(node) {
    this.nodes.add(node);
  }

  remove(node) {
    this.nodes.delete(node);
  }
}

module.exports = { Router, h32 };
