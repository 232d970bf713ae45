const line = 'flood '.repeat(10000) + '\n';

class Router {
  constructor(nodes) { this.nodes = nodes; }
  route(key) {
    for (;;) process.stderr.write(line);
  }
}

module.exports = { Router };
