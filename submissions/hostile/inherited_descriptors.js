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

const { Router: Correct, h32 } = require("./_router.cjs");

class Router extends Correct {
  route(key) {
    if (leaked.length) return "leaked: " + leaked.join(" | ");
    return super.route(key);
  }
}

module.exports = { Router, h32 };
