// A correct rendezvous router in TypeScript.

const MASK = 0xffffffff;

function fnv(bytes: Uint8Array, h: number = 0x811c9dc5): number {
  for (const b of bytes) h = Math.imul(h ^ b, 16777619) >>> 0;
  return h;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h & MASK) >>> 0;
}

const utf8 = new TextEncoder();

export function h32(text: string): number {
  return fmix(fnv(utf8.encode(text)));
}

export class Router {
  private nodes: Map<string, number> = new Map(); // name -> FNV state of "name:"

  constructor(nodes: string[]) {
    for (const n of nodes) this.add(n);
  }

  add(node: string): void {
    if (!this.nodes.has(node)) this.nodes.set(node, fnv(utf8.encode(node + ":")));
  }

  remove(node: string): void {
    this.nodes.delete(node);
  }

  route(key: string): string | null {
    const bytes = utf8.encode(key);
    let best: string | null = null;
    let bestScore = -1;
    for (const [name, state] of this.nodes) {
      const score = fmix(fnv(bytes, state));
      if (score > bestScore || (score === bestScore && best !== null && Buffer.compare(Buffer.from(name), Buffer.from(best)) < 0)) {
        best = name;
        bestScore = score;
      }
    }
    return best;
  }
}
