'use strict';
// vnode-ring whose add does not check for a present node: only add places
// points twice, since the constructor goes through a Set first. Wrong:
// adding a present node puts its k points on the ring again.

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
    this.ring = [];
    for (const node of new Set(nodes)) this.add(node);
  }

  lookup(key) {
    if (this.ring.length === 0) return null;
    const h = h32(key);
    const i = this.ring.findIndex(([pos]) => pos >= h);
    return this.ring[i === -1 ? 0 : i][1];
  }

  add(node) {
    this.nodes.add(node);
    for (let i = 0; i < this.k; i++) this.ring.push([h32(`${node}#${i}`), node]);
    this.ring.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  }

  remove(node) {
    this.nodes.delete(node);
    this.ring = this.ring.filter(([, owner]) => owner !== node);
  }

  points() {
    return this.ring.length;
  }

  load(n) {
    const counts = new Map([...this.nodes].sort().map((node) => [node, 0]));
    for (let i = 0; i < n; i++) {
      const owner = this.lookup(`key${i}`);
      if (owner !== null) counts.set(owner, counts.get(owner) + 1);
    }
    return [...counts];
  }
}

module.exports = { Router, h32 };
