'use strict';
// vnode-ring whose load fills a Map from the lookups. Wrong: a node that
// gets none of the keys never enters the Map, so load(n) leaves it out.

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

const byEntry = (a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

class Router {
  constructor(nodes, k) {
    this.k = k;
    this.nodes = new Set();
    this.ring = [];
    for (const node of nodes) this.add(node);
  }

  lookup(key) {
    if (this.ring.length === 0) return null;
    const h = h32(key);
    const i = this.ring.findIndex(([pos]) => pos >= h);
    return this.ring[i === -1 ? 0 : i][1];
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
    const counts = new Map();
    for (let i = 0; i < n; i++) {
      const owner = this.lookup(`key${i}`);
      if (owner !== null) counts.set(owner, (counts.get(owner) || 0) + 1);
    }
    return [...counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
}

module.exports = { Router, h32 };
