// Wrong: kills its own process when removing a node that is absent. The
// grader must report the crash for those cases and restart for the rest.

const { Router: Correct, h32 } = require('./correct.cjs');

class Router extends Correct {
  remove(node) {
    if (!this.nodes.has(node)) process.exit(3);
    super.remove(node);
  }
}

module.exports = { Router, h32 };
