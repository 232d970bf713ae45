// vnode-ring in TypeScript, done right: typed [position, node] entries kept
// sorted, a binary search for the first at or after the key's position.

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

type Entry = [position: number, node: string];

// Byte order, as the rule says: `<` on strings compares UTF-16 code units,
// which puts a name beyond U+FFFF before one from U+E000 to U+FFFF.
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

export class Router {
  private ring: Entry[] = [];
  private nodes = new Set<string>();

  constructor(nodes: string[], private readonly k: number) {
    for (const node of nodes) this.add(node);
  }

  lookup(key: string): string | null {
    if (this.ring.length === 0) return null;
    const h = h32(key);
    let lo = 0;
    let hi = this.ring.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ring[mid][0] < h) lo = mid + 1;
      else hi = mid;
    }
    return this.ring[lo % this.ring.length][1];
  }

  add(node: string): void {
    if (this.nodes.has(node)) return;
    this.nodes.add(node);
    for (let i = 0; i < this.k; i++) this.ring.push([h32(`${node}#${i}`), node]);
    this.ring.sort((a, b) => a[0] - b[0] || byBytes(a[1], b[1]));
  }

  remove(node: string): void {
    if (!this.nodes.delete(node)) return;
    this.ring = this.ring.filter(([, owner]) => owner !== node);
  }

  points(): number {
    return this.ring.length;
  }

  load(n: number): [string, number][] {
    const counts = new Map<string, number>([...this.nodes].map((node): [string, number] => [node, 0]));
    for (let i = 0; i < n; i++) {
      const owner = this.lookup(`key${i}`);
      if (owner !== null) counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    return [...counts].sort((a, b) => byBytes(a[0], b[0]));
  }
}
