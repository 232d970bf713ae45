// Wrong: compares scores as signed 32-bit integers (`| 0`), so a score at
// or above 2^31 looks negative and loses to smaller ones.

export function h32(text: string): number {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(text)) h = Math.imul(h ^ b, 16777619);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Router {
  private nodes: Set<string>;
  constructor(nodes: string[]) { this.nodes = new Set(nodes); }
  add(node: string): void { this.nodes.add(node); }
  remove(node: string): void { this.nodes.delete(node); }
  route(key: string): string | null {
    let best: string | null = null;
    let bestScore = -Infinity;
    for (const n of [...this.nodes].sort()) {
      const score = h32(`${n}:${key}`) | 0; // signed!
      if (score > bestScore) { best = n; bestScore = score; }
    }
    return best;
  }
}
