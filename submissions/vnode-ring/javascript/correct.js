'use strict';
// vnode-ring, done right: a sorted array of [position, node] and a binary
// search for the first position at or after the key's.

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

// Names in byte order, as the rule says: `<` on strings compares UTF-16
// code units, which puts a name beyond U+FFFF before one from U+E000 to
// U+FFFF.
const byBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const byEntry = (a, b) => a[0] - b[0] || byBytes(a[1], b[1]);

class Router {
  constructor(nodes, k) {
    this.k = k;
    this.nodes = new Set();
    this.ring = [];
    for (const node of nodes) this.add(node);
  }

  firstAtOrAfter(position) {
    let lo = 0;
    let hi = this.ring.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ring[mid][0] < position) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  lookup(key) {
    if (this.ring.length === 0) return null;
    const i = this.firstAtOrAfter(h32(key));
    return this.ring[i % this.ring.length][1];
  }

  add(node) {
    if (this.nodes.has(node)) return;
    this.nodes.add(node);
    for (let i = 0; i < this.k; i++) this.ring.push([h32(`${node}#${i}`), node]);
    this.ring.sort(byEntry);
  }

  remove(node) {
    if (!this.nodes.delete(node)) return;
    this.ring = this.ring.filter(([, owner]) => owner !== node);
  }

  points() {
    return this.ring.length;
  }

  load(n) {
    const counts = new Map([...this.nodes].map((node) => [node, 0]));
    for (let i = 0; i < n; i++) {
      const owner = this.lookup(`key${i}`);
      if (owner !== null) counts.set(owner, counts.get(owner) + 1);
    }
    return [...counts].sort((a, b) => byBytes(a[0], b[0]));
  }
}

module.exports = { Router, h32 };
