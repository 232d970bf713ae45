// Not a shape that works: a factory that returns a number, not the
// router object.

const Router = (nodes) => 42;
module.exports = { Router };
