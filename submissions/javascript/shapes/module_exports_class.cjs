// `module.exports = Router`: the class is the whole module.

module.exports = require('./_router.cjs').Router;
