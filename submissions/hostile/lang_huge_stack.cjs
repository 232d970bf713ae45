'use strict';
// Throws errors whose stacks are tens of megabytes of frames in this very
// folder (a stack is any string a program writes), after a recursion as
// deep as the stack allows with every frame kept: reading the traceback
// from them is the driver's work, bounded, and the verdict stays this
// program's runtime error.
Error.stackTraceLimit = Infinity;

function down(n) {
  return n ? down(n - 1) + 1 : deepest();
}

function deepest() {
  const error = new Error('the bottom');
  error.stack = `Error: the bottom\n${`    at down (${__dirname}/lang_huge_stack.cjs:10:${'9'.repeat(200)})\n`.repeat(200000)}`;
  throw error;
}

class Router {
  constructor(nodes) {
    this.nodes = nodes;
  }

  add() {}

  remove() {}

  route() {
    return down(5000);
  }
}

module.exports = { Router };
