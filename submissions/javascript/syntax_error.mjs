// A router with a typo in route: the module cannot be parsed, and the
// grader names the line and column (Node itself gives an import's syntax
// error neither).

export class Router {
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
    for (const n of this.nodes) if (best === null || n < best)) best = n;
    return best;
  }
}
