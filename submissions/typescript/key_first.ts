// Wrong: scores `${key}:${node}`, the key first, where the statement
// hashes the node's name first.

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
  private nodes = new Set<string>();
  constructor(nodes: string[]) {
    for (const n of nodes) this.nodes.add(n);
  }
  add(node: string): void {
    this.nodes.add(node);
  }
  remove(node: string): void {
    this.nodes.delete(node);
  }
  route(key: string): string | null {
    let best: string | null = null;
    let bestScore = -1;
    for (const n of this.nodes) {
      const score = h32(`${key}:${n}`);
      if (score > bestScore || (score === bestScore && best !== null && n < best)) {
        best = n;
        bestScore = score;
      }
    }
    return best;
  }
}
