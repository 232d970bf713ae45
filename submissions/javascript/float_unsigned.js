// Wrong: `*` instead of Math.imul, with every intermediate kept unsigned
// by `>>> 0`. The products still pass 2^53 and lose their low bits, and
// other bits than with the signed numbers `^` leaves.

const FNV_OFFSET = 2166136261;
const FNV_PRIME = 16777619;
const TWO_32 = 4294967296;

function h32(text) {
  let h = FNV_OFFSET;
  for (const b of new TextEncoder().encode(text)) {
    h = (h ^ b) >>> 0;
    h = (h * FNV_PRIME) % TWO_32;
  }
  h = (h ^ (h >>> 16)) >>> 0;
  h = (h * 0x85ebca6b) % TWO_32;
  h = (h ^ (h >>> 13)) >>> 0;
  h = (h * 0xc2b2ae35) % TWO_32;
  h = (h ^ (h >>> 16)) >>> 0;
  return h;
}

class Router {
  constructor(nodes) {
    this.nodes = new Set(nodes);
  }

  add(node) {
    this.nodes.add(node);
  }

  remove(node) {
    this.nodes.delete(node);
  }

  route(key) {
    let best = null;
    let bestScore = -1;
    for (const node of this.nodes) {
      const score = h32(`${node}:${key}`);
      if (score > bestScore || (score === bestScore && node < best)) {
        best = node;
        bestScore = score;
      }
    }
    return best;
  }
}

module.exports = { Router, h32 };
