// A correct router whose shape spins when read through its own code: its
// constructor's and route's `length` are getters that never return, and its
// own toString never returns either. The driver reads a Router's shape as
// data (no getter, no trap, Function.prototype.toString), so it is graded,
// and accepted, like any other.

function h32(text) {
  let h = 2166136261;
  for (const b of Buffer.from(text, 'utf8')) h = Math.imul(h ^ b, 16777619) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h = (h ^ (h >>> 13)) >>> 0;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

function spin() {
  for (;;);
}

class Router {
  constructor(nodes) { this.nodes = new Set(nodes); }
  static get length() { return spin(); }
  static toString() { return spin(); }
  add(node) { this.nodes.add(node); }
  remove(node) { this.nodes.delete(node); }
  route(key) {
    let best = null;
    for (const node of this.nodes) {
      const score = h32(node + ':' + key);
      const bestScore = best === null ? -1 : h32(best + ':' + key);
      if (score > bestScore || (score === bestScore && node < best)) best = node;
    }
    return best;
  }
}
Object.defineProperty(Router.prototype.route, 'length', { get: spin });

module.exports = { Router, h32 };
