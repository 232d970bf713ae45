// Not a shape that works: `Router` is a router object, not a class or a
// factory. The learner is told what their export is and what it must be.

const impl = require('./_router.cjs');

module.exports = { Router: new impl.Router(['a']) };
