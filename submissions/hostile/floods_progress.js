// Answers no case: writes progress messages on the reply descriptor without
// end, each valid, some cut in two, interleaved with empty lines. The grader
// must stop it at the case's deadline.
const fs = require("node:fs");

const whole = '{"progress": {"op_index": 7}}\n\n'.repeat(500);
const half = '{"progress": {"op_';

class Router {
  constructor(nodes) { this.nodes = nodes; }
  route(key) {
    for (;;) {
      fs.writeSync(4, whole);
      fs.writeSync(4, half);
      fs.writeSync(4, 'index": 7}}\n');
    }
  }
  add(node) {}
  remove(node) {}
}

module.exports = { Router };
