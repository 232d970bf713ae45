'use strict';
// Wrong: sorts by score alone, as many published rendezvous hashes do.
// The sort is stable, so two nodes with one score stay in the order they
// were added, not in name order.

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
    return [...this.nodes]
      .map((node) => ({ node, w: h32(key + '|' + node) }))
      .sort((a, b) => b.w - a.w)
      .slice(0, n)
      .map((item) => item.node);
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
