// A factory, `const Router = (nodes) => ...`, which cannot be called with
// `new`: it is called plainly and its object is the router.

const impl = require('./_router.cjs');

const Router = (nodes) => new impl.Router(nodes);
module.exports = { Router, h32: impl.h32 };
