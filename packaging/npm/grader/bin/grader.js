#!/usr/bin/env node
// Runs the grader binary of this machine's platform package
// (@rendezvous-grader/<platform>-<arch>, an optional dependency npm
// installs only where it fits), passing the arguments, the standard
// streams and the exit code through.
"use strict";

const { spawnSync } = require("child_process");
const path = require("path");

const platform = `${process.platform}-${process.arch}`;
const name = `@rendezvous-grader/${platform}`;
let binary;
try {
  binary = path.join(path.dirname(require.resolve(`${name}/package.json`)), "bin", "grader");
} catch (e) {
  process.stderr.write(
    `error: the grader has no binary for ${platform} here: ${name} is not installed.\n` +
      "  It is an optional dependency, left out when installing with --no-optional or\n" +
      "  --omit=optional, or on a platform it is not built for (Linux x64 and arm64).\n" +
      "  Reinstall without those options, or install the grader from the wheel your\n" +
      "  course hands out: pipx install rendezvous_grader-VERSION-py3-none-manylinux_*.whl\n"
  );
  process.exit(3);
}

// The grader's hints give commands to type: through this wrapper, the
// grader is `npx grader` (its binary's path is npm's business, and
// `grader` is on no PATH), unless the caller said otherwise.
const env = { ...process.env };
if (!env.GRADER_INVOKED_AS) {
  env.GRADER_INVOKED_AS = "npx grader";
}
const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit", env });
if (result.error) {
  process.stderr.write(`error: cannot run ${binary}: ${result.error.message}\n`);
  process.exit(3);
}
if (result.signal) {
  // Ended by a signal (Ctrl-C): end the same way, as a shell expects.
  process.kill(process.pid, result.signal);
}
process.exit(result.status === null ? 3 : result.status);
