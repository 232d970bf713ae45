// Replica ranking (hrw-top): your solution goes here.
// Check your work with:  grader grade --challenge hrw-top router.ts

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
  constructor(nodes: string[]) {
    // TODO: remember the nodes (a name listed twice is one node).
  }

  top(key: string, n: number): string[] {
    // TODO: the first min(n, number of nodes) names by descending
    // h32(key + "|" + node); equal scores put the smaller name first.
    return [];
  }

  route(key: string): string | null {
    // TODO: the first name of top(key, ...), or null with no nodes.
    return null;
  }

  add(node: string): void {
    // TODO: add the node (adding a present node changes nothing).
  }

  remove(node: string): void {
    // TODO: remove the node (removing an absent node changes nothing).
  }
}
