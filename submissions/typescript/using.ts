// A correct router that scores each key under a `using` declaration,
// whose disposal runs when route returns, and opens its log with an
// `await using` at the top level. The module defines Symbol.dispose when
// it is missing, as TypeScript's own documentation advises.

(Symbol as { dispose?: symbol }).dispose ??= Symbol("Symbol.dispose");

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

let open = 0;
let logClosed = false;

{
  await using _log = {
    async [Symbol.asyncDispose]() {
      logClosed = true;
    },
  };
}
if (!logClosed) throw new Error("the log was not closed");

class Scoring implements Disposable {
  constructor() {
    open++;
  }

  [Symbol.dispose](): void {
    open--;
  }
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
    using _scoring = new Scoring();
    if (open !== 1) throw new Error("a scoring was not disposed");
    try {
      using _failing = { [Symbol.dispose]() { throw new Error("disposed"); } };
      throw new Error("scored");
    } catch (e) {
      if (!(e instanceof Error) || e.name !== "SuppressedError") throw new Error("not suppressed");
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
