// A correct router whose hashing lives in a namespace, as older TypeScript
// code often does.

namespace Hashing {
  export function fnv(bytes: Uint8Array, h: number = 0x811c9dc5): number {
    for (const b of bytes) h = Math.imul(h ^ b, 16777619) >>> 0;
    return h;
  }

  export function fmix(h: number): number {
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
  }
}

const utf8 = new TextEncoder();

export function h32(text: string): number {
  return Hashing.fmix(Hashing.fnv(utf8.encode(text)));
}

export class Router {
  private nodes = new Set<string>();

  constructor(nodes: string[]) {
    for (const n of nodes) this.add(n);
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
      const s = h32(n + ":" + key);
      if (s > bestScore || (s === bestScore && best !== null && Buffer.compare(Buffer.from(n), Buffer.from(best)) < 0)) {
        best = n;
        bestScore = s;
      }
    }
    return best;
  }
}
