'use strict';
// vnode-ring keeping a Map from position to node: when two points share a
// position the later one overwrites the earlier.

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
  constructor(nodes, k) {
    this.k = k;
    this.nodes = new Set();
    this.owner = new Map();
    this.positions = null; // sorted keys of `owner`, rebuilt after changes
    for (const node of nodes) this.add(node);
  }

  lookup(key) {
    if (this.positions === null) this.positions = [...this.owner.keys()].sort((a, b) => a - b);
    const positions = this.positions;
    if (positions.length === 0) return null;
    const h = h32(key);
    let lo = 0;
    let hi = positions.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (positions[mid] < h) lo = mid + 1;
      else hi = mid;
    }
    return this.owner.get(positions[lo % positions.length]);
  }

  add(node) {
    if (this.nodes.has(node)) return;
    this.nodes.add(node);
    for (let i = 0; i < this.k; i++) this.owner.set(h32(`${node}#${i}`), node);
    this.positions = null;
  }

  remove(node) {
    if (!this.nodes.delete(node)) return;
    for (const [p, owner] of [...this.owner]) if (owner === node) this.owner.delete(p);
    this.positions = null;
  }

  points() {
    return this.owner.size;
  }

  load(n) {
    const counts = {};
    for (const node of this.nodes) counts[node] = 0;
    for (let i = 0; i < n; i++) {
      const owner = this.lookup(`key${i}`);
      if (owner !== null) counts[owner] += 1;
    }
    return Object.keys(counts)
      .sort()
      .map((node) => [node, counts[node]]);
  }
}

module.exports = { Router, h32 };
