'use strict';
// weighted-hrw, done right: score = weight / -Math.log(U).

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

// Byte order, as the rule says: `<` on strings compares UTF-16 code units,
// which puts a name beyond U+FFFF before one from U+E000 to U+FFFF.
const byBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));

class Router {
  constructor(pairs) {
    this.weights = new Map(pairs);
  }

  score(node, key) {
    const u = (h32(node + ':' + key) + 0.5) / 2 ** 32;
    return this.weights.get(node) / -Math.log(u);
  }

  top(key, n) {
    const scored = [...this.weights.keys()].map((node) => [this.score(node, key), node]);
    scored.sort((a, b) => b[0] - a[0] || byBytes(a[1], b[1]));
    return scored.slice(0, n).map(([, node]) => node);
  }

  route(key) {
    return this.top(key, 1)[0] ?? null;
  }

  add(node, weight) {
    this.weights.set(node, weight);
  }

  remove(node) {
    this.weights.delete(node);
  }
}

module.exports = { Router, h32 };
