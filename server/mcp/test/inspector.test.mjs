// Drives the real palace binary with the MCP Inspector's CLI (v2.12.0), the
// way a person would from a terminal. The inspector passes the server only
// the environment given with -e.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join } from "node:path";

import { BIN, TINY_MODEL, tempDir, testDir, startHTTP } from "./lib/palace.mjs";

const run = promisify(execFile);
const INSPECTOR = join(testDir, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js");

// inspect runs the inspector CLI against `palace serve --mcp` and returns
// its exit code and outputs (it prints JSON on stdout).
async function inspect(home, args, { server = ["serve", "--mcp", "--wing", "cli"] } = {}) {
  const env = ["-e", `HOME=${home}`];
  if (process.env.PALACE_ORT_LIB) env.push("-e", `PALACE_ORT_LIB=${process.env.PALACE_ORT_LIB}`);
  const argv = [INSPECTOR, "--cli", ...env, BIN, "--home", home, "--model-dir", TINY_MODEL, ...server, ...args];
  try {
    const { stdout, stderr } = await run(process.execPath, argv, { cwd: home, maxBuffer: 32 << 20, timeout: 120000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    if (e.code === undefined || typeof e.code !== "number") throw e;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test("inspector CLI: tools/list with --strict finds no portability problem, in both profiles", async (t) => {
  const home = tempDir(t);
  for (const [profile, n] of [["core", 8], ["full", 12]]) {
    const r = await inspect(home, ["--method", "tools/list", "--strict"], { server: ["serve", "--mcp", "--wing", "cli", "--profile", profile] });
    assert.equal(r.code, 0, r.stderr);
    const { tools } = JSON.parse(r.stdout);
    assert.equal(tools.length, n, profile);
    assert.doesNotMatch(r.stderr, /portability|error-severity/i);
  }
});

test("inspector CLI: remember then search", async (t) => {
  const home = tempDir(t);
  let r = await inspect(home, ["--method", "tools/call", "--tool-name", "palace_remember",
    "--tool-arg", "content=Release branches are cut on Thursdays after the freeze.", "--tool-arg", "importance=4"]);
  assert.equal(r.code, 0, r.stderr);
  const rem = JSON.parse(r.stdout).structuredContent;
  assert.equal(rem.added, true);
  assert.equal(rem.wing, "cli");
  r = await inspect(home, ["--method", "tools/call", "--tool-name", "palace_search", "--tool-arg", "query=release branches thursday", "--tool-arg", "limit=3"]);
  assert.equal(r.code, 0, r.stderr);
  const res = JSON.parse(r.stdout).structuredContent;
  assert.equal(res.hits[0].id, rem.id);
});

test("inspector CLI: a wrong argument is refused, not ignored", async (t) => {
  const home = tempDir(t);
  const r = await inspect(home, ["--method", "tools/call", "--tool-name", "palace_search", "--tool-arg", "query=x", "--tool-arg", "colour=blue"]);
  assert.notEqual(r.code, 0);
  assert.match(r.stdout + r.stderr, /Invalid params: palace_search: unknown parameter \\?"colour/);
});

test("inspector CLI: prompts, resources and the status tool", async (t) => {
  const home = tempDir(t);
  let r = await inspect(home, ["--method", "prompts/get", "--prompt-name", "wake-up", "--prompt-args", "budget=200"]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(JSON.parse(r.stdout).messages.length === 1);
  r = await inspect(home, ["--method", "resources/read", "--uri", "palace://status"]);
  assert.equal(r.code, 0, r.stderr);
  const status = JSON.parse(r.stdout).contents[0].text;
  assert.match(status, /aaak_legend/);
  assert.doesNotMatch(status, /memory_protocol/, "the protocol is in the instructions only");
});

test("inspector CLI over streamable HTTP with the bearer token", async (t) => {
  const home = tempDir(t);
  const { url, token } = await startHTTP(t, home);
  const { stdout } = await run(process.execPath, [INSPECTOR, "--cli", url, "--transport", "http",
    "--header", `Authorization: Bearer ${token}`, "--method", "tools/call", "--tool-name", "palace_status"],
  { maxBuffer: 32 << 20, timeout: 120000 });
  assert.equal(JSON.parse(stdout).structuredContent.drawers, 0);
  await assert.rejects(run(process.execPath, [INSPECTOR, "--cli", url, "--transport", "http", "--method", "tools/list"], { timeout: 120000 }));
});
