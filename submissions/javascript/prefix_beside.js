'use strict';
// Wrong: hashes `node + ":"` once per node and keeps the states in an
// array beside the names, but remove takes the name out and leaves the
// state: from the removed node on, each name is scored with its
// predecessor's state.

const FNV_BASIS = 0x811c9dc5;

function fnv(h, text) {
  for (const b of Buffer.from(text, 'utf8')) h = Math.imul(h ^ b, 16777619);
  return h;
}

function finish(h) {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function h32(text) {
  return finish(fnv(FNV_BASIS, text));
}

class Router {
  constructor(nodes) {
    this.names = [];
    this.states = [];
    for (const n of nodes) this.add(n);
  }

  add(node) {
    if (this.names.includes(node)) return;
    this.names.push(node);
    this.states.push(fnv(FNV_BASIS, node + ':'));
  }

  remove(node) {
    const i = this.names.indexOf(node);
    if (i !== -1) this.names.splice(i, 1);
  }

  route(key) {
    let best = null;
    let bestScore = -1;
    this.names.forEach((n, i) => {
      const s = finish(fnv(this.states[i], key));
      if (s > bestScore || (s === bestScore && n < best)) {
        best = n;
        bestScore = s;
      }
    });
    return best;
  }
}

module.exports = { Router, h32 };
