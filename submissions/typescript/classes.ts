// A correct router written with parameter properties, an abstract base
// class, overloads and a definite assignment (`nodes!`): all of it is
// TypeScript syntax that must vanish without a trace.

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

class Member {
  constructor(public readonly name: string, private weight: number = 1) {}

  get heavy(): boolean {
    return this.weight > 1;
  }
}

abstract class BaseRouter {
  protected nodes!: Map<string, Member>;

  abstract route(key: string): string | null;

  add(node: string): void;
  add(node: Member): void;
  add(node: string | Member): void {
    const m = typeof node === "string" ? new Member(node) : node;
    this.nodes.set(m.name, m);
  }

  remove(node: string): void {
    this.nodes.delete(node);
  }
}

export class Router extends BaseRouter {
  constructor(nodes: string[]) {
    super();
    this.nodes = new Map();
    for (const n of nodes) this.add(n);
  }

  override route(key: string): string | null {
    let best: string | null = null;
    let bestScore = -1;
    for (const n of this.nodes.keys()) {
      const s = h32(n + ":" + key);
      if (s > bestScore || (s === bestScore && best !== null && Buffer.compare(Buffer.from(n), Buffer.from(best)) < 0)) {
        best = n;
        bestScore = s;
      }
    }
    return best;
  }
}
