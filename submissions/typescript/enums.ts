// A correct router that keeps each node's state in an enum and the hash
// seed in a const enum: both are TypeScript-only and must run.

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
  return h >>> 0;
}

const utf8 = new TextEncoder();

export function h32(text: string): number {
  return fmix(fnv(utf8.encode(text)));
}

enum NodeState {
  Up,
  Removed = "removed",
}

const enum Fnv {
  Offset = 0x811c9dc5,
}

export class Router {
  private states = new Map<string, NodeState>();

  constructor(nodes: string[]) {
    for (const n of nodes) this.add(n);
  }

  add(node: string): void {
    this.states.delete(node);
    this.states.set(node, NodeState.Up);
  }

  remove(node: string): void {
    this.states.set(node, NodeState.Removed);
  }

  route(key: string): string | null {
    if (fnv(new Uint8Array(0), Fnv.Offset) !== 0x811c9dc5) throw new Error("const enum lost");
    let best: string | null = null;
    let bestScore = -1;
    for (const n of [...this.states].filter(([, s]) => s === NodeState.Up).map(([n]) => n)) {
      const s = h32(n + ":" + key);
      if (s > bestScore || (s === bestScore && best !== null && Buffer.compare(Buffer.from(n), Buffer.from(best)) < 0)) {
        best = n;
        bestScore = s;
      }
    }
    return best;
  }
}
