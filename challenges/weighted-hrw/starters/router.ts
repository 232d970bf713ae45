// Weighted rendezvous hashing (weighted-hrw): your solution goes here.
// Check your work with:  grader grade --challenge weighted-hrw router.ts

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
  constructor(pairs: [string, number][]) {
    // TODO: remember each [name, weight] pair.
  }

  route(key: string): string | null {
    // TODO: the node with the highest weight / -Math.log(U), where
    // U = (h32(node + ":" + key) + 0.5) / 2 ** 32; equal scores go to the
    // smaller name; null with no nodes.
    return null;
  }

  top(key: string, n: number): string[] {
    // TODO: the first min(n, number of nodes) names by descending score,
    // ties by smaller name.
    return [];
  }

  add(node: string, weight: number): void {
    // TODO: add the node, or set its new weight if it is present.
  }

  remove(node: string): void {
    // TODO: remove the node (removing an absent node changes nothing).
  }
}
