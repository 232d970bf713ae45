// Closes the protocol's descriptors (requests, responses, progress) in its
// first operation, then lingers: the grader must not wait for it.
const fs = require('fs');

function closeAndLinger() {
  for (const fd of [3, 4, 5]) fs.closeSync(fd);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3600 * 1000);
}

class Router {
  constructor(nodes) { this.nodes = nodes; }
  route(key) { closeAndLinger(); }
  add(node) { closeAndLinger(); }
  remove(node) { closeAndLinger(); }
}

module.exports = { Router };
