// Reads the expected outputs through a link beside it (`linked-tests`,
// which the test points at the tests folder) and answers with them. In a
// working sandbox the link leads nowhere it may read, and it says so.
const fs = require("node:fs");
const path = require("node:path");

const LINK = path.join(__dirname, "linked-tests");

function leak() {
  try {
    const found = [];
    for (const name of fs.readdirSync(LINK)) {
      if (name.endsWith(".expected.json")) {
        found.push(name + " " + fs.readFileSync(path.join(LINK, name), "utf8"));
      }
    }
    return "LEAKED " + found.join(" ");
  } catch (e) {
    return "blocked: " + e.code;
  }
}

class Router {
  constructor(nodes) {
    this.leaked = leak();
  }
  add(node) {}
  remove(node) {}
  route(key) {
    return this.leaked;
  }
}

module.exports = { Router };
