'use strict';
// Wrong: keeps the members in an array and removes with
// `splice(indexOf(node), 1)`; for an absent node indexOf is -1, and the
// last node added loses its place (and its points) instead.

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
    this.nodes = [];
    this.ring = [];
    for (const node of nodes) this.add(node);
  }

  lookup(key) {
    if (this.ring.length === 0) return null;
    const h = h32(key);
    const entry = this.ring.find(([position]) => position >= h) ?? this.ring[0];
    return entry[1];
  }

  add(node) {
    if (this.nodes.includes(node)) return;
    this.nodes.push(node);
    for (let i = 0; i < this.k; i++) this.ring.push([h32(`${node}#${i}`), node]);
    this.ring.sort(byEntry);
  }

  remove(node) {
    const [gone] = this.nodes.splice(this.nodes.indexOf(node), 1);
    this.ring = this.ring.filter(([, owner]) => owner !== gone);
  }

  points() {
    return this.ring.length;
  }

  load(n) {
    const counts = new Map(this.nodes.map((node) => [node, 0]));
    for (let i = 0; i < n; i++) {
      const owner = this.lookup(`key${i}`);
      if (owner !== null) counts.set(owner, counts.get(owner) + 1);
    }
    return [...counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
}

module.exports = { Router, h32 };
