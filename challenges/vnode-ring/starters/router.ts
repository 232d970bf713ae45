// Consistent-hash ring (vnode-ring): your solution goes here.
// Check your work with:  grader grade --challenge vnode-ring router.ts

// The pinned hash: FNV-1a over the UTF-8 bytes, then the MurmurHash3
// finalizer, in unsigned 32-bit arithmetic. Done for you. Math.imul keeps
// the multiplications exact (a plain `*` loses bits past 2^53).
//
//   h32("") === 2872998923, h32("a") === 444641715,
//   h32("hello") === 2290972270, h32("A#0") === 2353899868
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

export class Router {
  constructor(nodes: string[], k: number) {
    // TODO: place k points per node at h32(node + "#" + i); keep the ring
    // as (position, node) entries sorted by position, then name.
  }

  lookup(key: string): string | null {
    // TODO: the node of the first entry at or after h32(key), wrapping past
    // the end; null on an empty ring.
    return null;
  }

  add(node: string): void {
    // TODO: place the node's k points (a present node changes nothing).
  }

  remove(node: string): void {
    // TODO: take all k points away (an absent node changes nothing).
  }

  points(): number {
    // TODO: the number of entries on the ring.
    return 0;
  }

  load(n: number): [string, number][] {
    // TODO: look up "key0" .. `key${n - 1}`; return [[node, count], ...] for
    // every node, sorted by name, zero counts included.
    return [];
  }
}
