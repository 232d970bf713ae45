// Tries to reach the UNIX socket the test listens on, by path and by
// abstract name, and to leave a file in /dev/shm for a later session.
// Correct otherwise, so what it reached shows as its wrong answer.
import net from "node:net";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import correct from "./_router.cjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const hints = JSON.parse(fs.readFileSync(path.join(here, "hints.json"), "utf8"));

function attempt(address) {
  return new Promise((resolve) => {
    const s = net.connect({ path: address });
    const timer = setTimeout(() => { s.destroy(); resolve("refused"); }, 500);
    s.on("connect", () => { clearTimeout(timer); s.destroy(); resolve("reached"); });
    s.on("error", () => { clearTimeout(timer); resolve("refused"); });
  });
}

const outcomes = [
  ["unix path", await attempt(hints.unix_path)],
  ["unix abstract", await attempt("\0" + hints.unix_abstract)],
];
let shm = "refused";
try {
  fs.writeFileSync("/dev/shm/rendezvous-grader-hostile-canary-js", "CANARY-KEPT-STATE");
  shm = "private";
} catch {}
const reached = outcomes.filter(([, o]) => o === "reached").map(([n]) => n);

export const h32 = correct.h32;

export class Router extends correct.Router {
  route(key) {
    if (reached.length) return "reached: " + reached.join(", ");
    return "refused: " + outcomes.map(([n]) => n).join(", ") + "; /dev/shm " + shm;
  }
}
