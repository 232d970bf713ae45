// A correct router with a method decorator in the experimentalDecorators
// form (target, key, descriptor): `@logged` wraps route and changes
// nothing it returns.
// The grader refuses it: Node 20 cannot run decorators, and which of the
// two forms a one-file submission means cannot be told (docs/learners.md).

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

let calls = 0;

function logged(_target: object, _key: string, descriptor: PropertyDescriptor): PropertyDescriptor {
  const method = descriptor.value;
  descriptor.value = function (this: unknown, ...args: unknown[]) {
    calls++;
    return method.apply(this, args);
  };
  return descriptor;
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

  @logged
  route(key: string): string | null {
    let best: string | null = null;
    let bestScore = -1;
    for (const n of this.nodes) {
      const s = h32(n + ":" + key);
      if (s > bestScore || (s === bestScore && best !== null && n < best)) {
        best = n;
        bestScore = s;
      }
    }
    return best;
  }
}
