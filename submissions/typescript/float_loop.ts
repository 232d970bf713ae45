// Wrong: `*` in the FNV-1a loop, each step kept unsigned with `>>> 0`,
// but Math.imul in the finalizer: the loop's products pass 2^53 and lose
// their low bits.

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 16777619;

function fnv1a(bytes: Uint8Array): number {
  let hash = FNV_OFFSET;
  for (const byte of bytes) {
    hash = (hash ^ byte) >>> 0;
    hash = (hash * FNV_PRIME) >>> 0;
  }
  return hash;
}

function finalize(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function h32(text: string): number {
  return finalize(fnv1a(new TextEncoder().encode(text)));
}

export class Router {
  private nodes = new Set<string>();

  constructor(nodes: string[]) {
    nodes.forEach((n) => this.nodes.add(n));
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
    for (const node of [...this.nodes].sort()) {
      const score = h32(`${node}:${key}`);
      if (score > bestScore) {
        best = node;
        bestScore = score;
      }
    }
    return best;
  }
}
