// Wrong: FNV-1a alone, with no finalizer: the scores are not h32's.

export function h32(text) {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(text)) h = Math.imul(h ^ b, 16777619);
  return h >>> 0;
}

export class Router {
  constructor(nodes) { this.nodes = new Set(nodes); }
  add(node) { this.nodes.add(node); }
  remove(node) { this.nodes.delete(node); }
  route(key) {
    let best = null;
    let bestScore = -1;
    for (const n of [...this.nodes].sort()) {
      const s = h32(n + ':' + key);
      if (s > bestScore) { best = n; bestScore = s; }
    }
    return best;
  }
}
