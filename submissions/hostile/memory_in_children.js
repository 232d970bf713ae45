// Spreads 900 MiB over three child processes of 300 MiB each: RLIMIT_DATA
// holds each process under the limit, the session's memory must count
// them all.
const { spawn } = require('child_process');

class Router {
  constructor(nodes) { this.nodes = new Set(nodes); }
  add(node) { this.nodes.add(node); }
  remove(node) { this.nodes.delete(node); }
  route(key) {
    for (let i = 0; i < 3; i++) {
      spawn(process.execPath, ['-e', 'const b = Buffer.alloc(300 << 20, 1); setInterval(() => b[0]++, 1000);'], { stdio: 'ignore' });
    }
    // Waits without burning CPU, until the grader ends it.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000);
    return null;
  }
}

module.exports = { Router };
