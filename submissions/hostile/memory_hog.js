const hoard = [];

class Router {
  constructor(nodes) { this.nodes = new Set(nodes); }
  add(node) { this.nodes.add(node); }
  remove(node) { this.nodes.delete(node); }
  route(key) {
    // 128 MiB a step: the memory limit comes long before the time limit.
    for (;;) hoard.push(new Array(1 << 24).fill(hoard.length));
  }
}

module.exports = { Router };
