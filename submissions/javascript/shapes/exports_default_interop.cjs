// tsc's and Babel's CommonJS output of `export default class Router`: the
// class in `exports.default`, beside `__esModule`.

const impl = require('./_router.cjs');

Object.defineProperty(exports, '__esModule', { value: true });
exports.default = impl.Router;
exports.h32 = impl.h32;
