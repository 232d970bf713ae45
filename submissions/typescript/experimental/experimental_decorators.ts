// A correct router with decorators in the experimentalDecorators form
// (target, key, descriptor), which the tsconfig.json beside it asks for:
// a class decorator, a method decorator that wraps, a property decorator
// and a parameter decorator.

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
const sealed: string[] = [];
const properties: string[] = [];
const parameters: number[] = [];

function seal(constructor: Function) {
  sealed.push(constructor.name);
  Object.seal(constructor.prototype);
}

function logged(_target: object, _key: string, descriptor: PropertyDescriptor): PropertyDescriptor {
  const method = descriptor.value;
  descriptor.value = function (this: unknown, ...args: unknown[]) {
    calls++;
    return method.apply(this, args);
  };
  return descriptor;
}

function tracked(_target: object, key: string) {
  properties.push(key);
}

function text(_target: object, _key: string, index: number) {
  parameters.push(index);
}

@seal
export class Router {
  @tracked
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
  route(@text key: string): string | null {
    if (sealed[0] !== "Router" || properties[0] !== "nodes" || parameters[0] !== 0) {
      throw new Error("a decorator did not run");
    }
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
