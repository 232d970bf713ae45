// Reads every descriptor beyond stdin, stdout, stderr and the protocol's
// three (3, 4, 5): whatever the grader held open must not reach it.
// Correct otherwise, so any leak shows as a wrong answer.
const fs = require("node:fs");

const leaked = [];
for (const name of fs.readdirSync("/proc/self/fd")) {
  const fd = Number(name);
  if (fd <= 5) continue;
  try {
    const buffer = Buffer.alloc(200);
    const n = fs.readSync(fd, buffer, 0, 200, 0);
    // Node's own descriptors (its event loop's epoll, eventfd and signal
    // pipe) read as nothing or fail: only a file with content is a leak.
    if (n > 0) leaked.push(buffer.subarray(0, n).toString("utf8"));
  } catch {
    // The listing's own descriptor, closed by now, or one of Node's.
  }
}

function h32(text) {
  let h = 2166136261;
  for (const b of Buffer.from(text, "utf8")) h = Math.imul(h ^ b, 16777619) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h = (h ^ (h >>> 13)) >>> 0;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

class Router {
  constructor(nodes) { this.nodes = new Set(nodes); }
  add(node) { this.nodes.add(node); }
  remove(node) { this.nodes.delete(node); }
  route(key) {
    if (leaked.length) return "leaked: " + leaked.join(" | ");
    let best = null;
    let bestScore = -1;
    for (const n of this.nodes) {
      const s = h32(n + ":" + key);
      if (s > bestScore || (s === bestScore && n < best)) { best = n; bestScore = s; }
    }
    return best;
  }
}

module.exports = { Router, h32 };
