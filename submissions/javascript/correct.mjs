// A correct answer as an ES module exporting solve(args, ops).

export function h32(text) {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(text)) h = Math.imul(h ^ b, 16777619);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const byteOrder = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));

export function solve([nodes], ops) {
  const members = new Set(nodes);
  return ops.map(([name, operand]) => {
    if (name === 'add') { members.add(operand); return null; }
    if (name === 'remove') { members.delete(operand); return null; }
    let best = null;
    let bestScore = -1;
    for (const n of [...members].sort(byteOrder)) {
      const s = h32(`${n}:${operand}`);
      if (s > bestScore) { best = n; bestScore = s; }
    }
    return best;
  });
}
