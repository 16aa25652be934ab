const fs = require("fs");

// Reads a list of names, one a line, skipping blank lines and comments,
// and returns at most limit of them, trimmed of surrounding whitespace.
function readNames(path, limit) {
  const text = fs.readFileSync(path, "utf8");
  const out = [];
  for (const line of text.split("\n")) {
    const name = line.trim();
    if (name === "" || name.startsWith("#")) {
      continue;
    }
    out.push(name);
    if (out.length >= limit) {
      break;
    }
  }
  return out;
}

class Counter {
  constructor() {
    this.n = 0;
  }

  inc() {
    this.n++;
    return this.n;
  }
}

let total = 0;

const add = function (a, b) {
  return a + b;
};

module.exports = { readNames, Counter, add, total };
