'use strict';
// vnode-ring ported from Go's groupcache: each point is the index, then the
// name (strconv.Itoa(i) + node). Wrong: the statement's points are
// h32(node + "#" + i).

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
    for (const node of nodes) this.add(node);
  }

  lookup(key) {
    if (this.ring.length === 0) return null;
    const h = h32(key);
    let lo = 0;
    let hi = this.ring.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ring[mid].pos < h) lo = mid + 1;
      else hi = mid;
    }
    return this.ring[lo % this.ring.length].node;
  }

  add(node) {
    if (this.nodes.has(node)) return;
    this.nodes.add(node);
    for (let i = 0; i < this.k; i++) {
      this.ring.push({ pos: h32(String(i) + node), node });
    }
    this.ring.sort((a, b) => a.pos - b.pos || (a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
  }

  remove(node) {
    if (!this.nodes.delete(node)) return;
    this.ring = this.ring.filter((p) => p.node !== node);
  }

  points() {
    return this.ring.length;
  }

  load(n) {
    const counts = {};
    for (const node of this.nodes) counts[node] = 0;
    for (let i = 0; i < n; i++) {
      const owner = this.lookup('key' + i);
      if (owner !== null) counts[owner] += 1;
    }
    return Object.keys(counts)
      .sort()
      .map((node) => [node, counts[node]]);
  }
}

module.exports = { Router };
