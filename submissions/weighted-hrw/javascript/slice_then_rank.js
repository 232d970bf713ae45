'use strict';
// weighted-hrw whose top slices the nodes before sorting them. Wrong:
// top(key, n) must rank every node and return the first n; this ranks only
// the first n added. route scans every node and is right.

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
  constructor(pairs) {
    this.weights = new Map(pairs);
  }

  score(node, key) {
    const u = (h32(node + ':' + key) + 0.5) / 2 ** 32;
    return this.weights.get(node) / -Math.log(u);
  }

  route(key) {
    let best = null;
    let bestScore = -Infinity;
    for (const node of this.weights.keys()) {
      const s = this.score(node, key);
      if (best === null || s > bestScore || (s === bestScore && node < best)) {
        best = node;
        bestScore = s;
      }
    }
    return best;
  }

  top(key, n) {
    return [...this.weights.keys()]
      .slice(0, n)
      .map((node) => [this.score(node, key), node])
      .sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
      .map(([, node]) => node);
  }

  add(node, weight) {
    this.weights.set(node, weight);
  }

  remove(node) {
    this.weights.delete(node);
  }
}

module.exports = { Router, h32 };
