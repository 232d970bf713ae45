// weighted-hrw in TypeScript, done right: score = weight / -Math.log(U).

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

// Byte order, as the rule says: `<` on strings compares UTF-16 code units,
// which puts a name beyond U+FFFF before one from U+E000 to U+FFFF.
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

export class Router {
  private weights: Map<string, number>;

  constructor(pairs: [string, number][]) {
    this.weights = new Map(pairs);
  }

  private score(node: string, key: string): number {
    const u = (h32(node + ':' + key) + 0.5) / 2 ** 32;
    return (this.weights.get(node) as number) / -Math.log(u);
  }

  top(key: string, n: number): string[] {
    const scored: [number, string][] = [...this.weights.keys()].map((node) => [this.score(node, key), node]);
    scored.sort((a, b) => b[0] - a[0] || byBytes(a[1], b[1]));
    return scored.slice(0, n).map(([, node]) => node);
  }

  route(key: string): string | null {
    return this.top(key, 1)[0] ?? null;
  }

  add(node: string, weight: number): void {
    this.weights.set(node, weight);
  }

  remove(node: string): void {
    this.weights.delete(node);
  }
}
