'use strict';
// rendezvous-grader's Node driver (JavaScript, CommonJS or ES module).
//
// Loads a learner's module, builds `new Router(...args)` (or calls
// `solve(args, ops)`), replays each case's operations and answers on the
// protocol descriptors. The protocol is documented in the project's docs/protocol.md.
//
// File descriptors: 3 requests in, 4 responses out, 5 progress queries in.
// Standard output and error belong to the learner; the grader captures them.

const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const { Worker } = require('worker_threads');

const REQUESTS = 3;
const RESPONSES = 4;
const PROTOCOL = 1;

// The operation index under way, shared with the progress thread: -1 is
// the constructor.
const progress = new Int32Array(new SharedArrayBuffer(4));
const NO_OP = -2; // solve(): no single operation is under way

// The main thread is busy with learner code while a case runs, so progress
// queries are answered by a worker thread reading the shared counters.
const worker = new Worker(`
  const fs = require('fs');
  const { workerData } = require('worker_threads');
  const buf = Buffer.alloc(64);
  const nap = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    let n;
    // The grader makes descriptor 5 non-blocking: a worker blocked in
    // read(2) would keep process.exit() from ever finishing.
    try { n = fs.readSync(5, buf); } catch (e) {
      if (e.code !== 'EAGAIN') break;
      Atomics.wait(nap, 0, 0, 20);
      continue;
    }
    if (n === 0) break;
    const op = Atomics.load(workerData, 0);
    const line = JSON.stringify({ progress: { op_index: op === -2 ? null : op } }) + '\\n';
    fs.writeSync(4, line);
  }
`, { eval: true, workerData: progress });
worker.unref();

// A learner's process.exit() ends the process mid-case: say which
// operation was running before it goes.
let inCase = false;
process.on('exit', () => {
  if (!inCase) return;
  const op = Atomics.load(progress, 0);
  try { send({ progress: { op_index: op === NO_OP ? null : op } }); } catch (_) { /* gone */ }
});

function send(message) {
  const data = Buffer.from(JSON.stringify(message) + '\n');
  let offset = 0;
  while (offset < data.length) offset += fs.writeSync(RESPONSES, data, offset);
}

// Node writes to pipes asynchronously unless told otherwise; the main thread
// never returns to the event loop while serving, so write synchronously.
for (const [stream, fd] of [[process.stdout, 1], [process.stderr, 2]]) {
  stream.write = (chunk, encoding, callback) => {
    if (typeof encoding === 'function') callback = encoding;
    try {
      fs.writeSync(fd, typeof chunk === 'string' ? chunk : Buffer.from(chunk));
    } catch (_) { /* a closed or full pipe is the grader's business */ }
    if (typeof callback === 'function') callback();
    return true;
  };
}

// argv[2] is the module to import; argv[3], when given, is the learner's
// own file it came from (a TypeScript source), for tracebacks.
const moduleFile = path.resolve(process.argv[2]);
const learnerFile = path.resolve(process.argv[3] || process.argv[2]);
const learnerDir = path.dirname(learnerFile);

// The grader reads an error's message and traceback up to 8192 characters
// each (docs/protocol.md): longer ones are cut here, so that an enormous
// exception stays the learner's runtime error.
const CLIP = 8192;

function clip(text, keepEnd) {
  if (text.length <= CLIP) return text;
  const cut = ` ... (${text.length - CLIP} characters cut) ... `;
  return keepEnd ? cut + text.slice(-CLIP) : text.slice(0, CLIP) + cut;
}

function describe(error) {
  const isError = error instanceof Error;
  const stack = isError && typeof error.stack === 'string' ? error.stack : '';
  const frames = stack.split('\n').slice(1).filter((l) => l.includes(learnerDir + path.sep));
  let line = null;
  const trimmed = frames.map((l) => {
    const rel = l.replace(pathToFileURL(learnerDir).href + '/', '').split(learnerDir + path.sep).join('');
    const m = /:(\d+):\d+\)?$/.exec(l);
    if (m && line === null) line = Number(m[1]);
    return rel;
  });
  return {
    type: clip(String(isError ? error.name : typeof error), false),
    message: clip(String(isError ? error.message : String(error)), false),
    // The innermost frames come first in a V8 stack.
    traceback: clip(trimmed.join('\n'), false),
    line,
    // An OS error's number tells a limit (EFBIG, ENOSPC) from a bug.
    errno: isError && Number.isInteger(error.errno) ? Math.abs(error.errno) : null,
  };
}

function firstNonJson(values) {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === undefined) { values[i] = null; continue; }
    try {
      if (JSON.stringify(v) === undefined) return i;
    } catch (_) {
      return i;
    }
  }
  return -1;
}

function pick(module, name) {
  if (typeof module[name] === 'function') return module[name];
  const def = module.default;
  if (def && typeof def[name] === 'function') return def[name];
  if (typeof def === 'function' && def.name === name) return def;
  return null;
}

function runCase(id, [args, ops], api) {
  Atomics.store(progress, 0, -1);
  inCase = true;
  try {
    return runCaseInner(id, args, ops, api);
  } finally {
    inCase = false;
  }
}

function runCaseInner(id, args, ops, api) {
  const output = [];
  let opIndex = -1;
  try {
    if (api.Router) {
      const router = new api.Router(...args);
      for (let i = 0; i < ops.length; i++) {
        opIndex = i;
        Atomics.store(progress, 0, i);
        const op = ops[i];
        const method = router[op[0]];
        if (typeof method !== 'function') {
          throw new TypeError(`Router has no method ${op[0]}`);
        }
        const result = method.apply(router, op.slice(1));
        output.push(result === undefined ? null : result);
      }
    } else {
      opIndex = null;
      Atomics.store(progress, 0, NO_OP);
      const result = api.solve(args, ops);
      if (!Array.isArray(result)) {
        throw new TypeError(`solve must return an array, it returned ${result === null ? 'null' : typeof result}`);
      }
      output.push(...result);
    }
  } catch (error) {
    return { id, error: { ...describe(error), op_index: opIndex }, output: sanitize(output) };
  }
  const bad = firstNonJson(output);
  if (bad >= 0) {
    const value = output[bad];
    return {
      id,
      output: output.slice(0, bad),
      error: {
        type: 'TypeError',
        message: `${bad < ops.length ? ops[bad][0] : 'solve'} returned ${String(value)} (${typeof value}), which is not a JSON value`,
        traceback: '',
        line: null,
        op_index: bad,
      },
    };
  }
  return { id, output };
}

function sanitize(values) {
  const bad = firstNonJson(values);
  return bad >= 0 ? values.slice(0, bad) : values;
}

function runHash(id, texts, h32) {
  Atomics.store(progress, 0, NO_OP);
  try {
    return { id, h32: texts.map((t) => { const v = h32(t); return Number.isInteger(v) ? v : String(v); }) };
  } catch (error) {
    return { id, error: describe(error) };
  }
}

function* requestLines() {
  const buf = Buffer.alloc(1 << 16);
  let pending = [];
  for (;;) {
    let n;
    try {
      n = fs.readSync(REQUESTS, buf, 0, buf.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EOF') return;
      throw e;
    }
    if (n === 0) return;
    let start = 0;
    for (let i = 0; i < n; i++) {
      if (buf[i] === 10) {
        pending.push(Buffer.from(buf.subarray(start, i)));
        yield Buffer.concat(pending).toString('utf8');
        pending = [];
        start = i + 1;
      }
    }
    if (start < n) pending.push(Buffer.from(buf.subarray(start, n)));
  }
}

async function main() {
  let module;
  try {
    module = await import(pathToFileURL(moduleFile).href);
  } catch (error) {
    send({ load_error: describe(error) });
    return;
  }
  const api = { Router: pick(module, 'Router'), solve: pick(module, 'solve') };
  const h32 = pick(module, 'h32');
  if (!api.Router && !api.solve) {
    send({
      load_error: {
        type: 'MissingApi',
        message: 'the module exports neither a class Router nor a function solve(args, ops)',
        traceback: '',
        line: null,
      },
    });
    return;
  }
  if (api.Router) api.solve = null;
  // The Router's public methods (its own and inherited), so the grader can
  // tell a learner whose class belongs to another challenge.
  const methods = new Set();
  for (let proto = api.Router && api.Router.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (name !== 'constructor' && !name.startsWith('_') && typeof d.value === 'function') methods.add(name);
    }
  }
  send({
    hello: {
      protocol: PROTOCOL,
      api: api.Router ? 'class' : 'solve',
      h32: !!h32,
      methods: [...methods].sort(),
      runtime: `node ${process.versions.node}`,
    },
  });
  for (const line of requestLines()) {
    const request = JSON.parse(line);
    if ('case' in request) send(runCase(request.id, request.case, api));
    else if ('h32' in request && h32) send(runHash(request.id, request.h32, h32));
    else send({ id: request.id, unsupported: Object.keys(request).sort() });
  }
  process.exit(0);
}

main().catch((error) => {
  // A fault of this driver, not of the learner: say so on stderr and exit 70.
  fs.writeSync(2, `rendezvous-grader node driver failed: ${error && error.stack}\n`);
  process.exit(70);
});
