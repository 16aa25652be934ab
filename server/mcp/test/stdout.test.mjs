// The stdio protocol stream must carry nothing but JSON-RPC: a stray line on
// stdout breaks clients (MemPalace #225). Raw lines go in, including
// garbage, and every line that comes out must be a JSON-RPC message.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFile } from "node:child_process";
import { promisify } from "node:util";

import { BIN, childEnv, tempDir, serveArgs } from "./lib/palace.mjs";

function session(home, lines, args = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, serveArgs(home, args), { env: childEnv({ HOME: home }), stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`no exit in 60s; stderr:\n${err}`)); }, 60000);
    timer.unref();
    child.on("exit", (code, signal) => { clearTimeout(timer); resolve({ code, signal, out, err }); });
    // Requests are answered concurrently; give them time before closing
    // stdin so each gets its answer.
    (async () => {
      for (const l of lines) {
        child.stdin.write(l + "\n");
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 1500));
      child.stdin.end();
    })();
  });
}

const req = (id, method, params = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params });

test("stdout carries only JSON-RPC, whatever comes in; the server exits 0 when stdin closes", async (t) => {
  const home = tempDir(t);
  const lines = [
    req(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } }),
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    req(2, "tools/list"),
    req(3, "tools/call", { name: "palace_status", arguments: {} }),
    req(4, "tools/call", { name: "palace_remember", arguments: { content: "stdout hygiene matters", wing: "w" } }),
    req(5, "tools/call", { name: "palace_search", arguments: { query: "hygiene", bogus: true } }),
    req(6, "tools/call", { name: "palace_get", arguments: { id: "d_missing" } }),
    req(7, "tools/call", { name: "palace_mine", arguments: { path: "/etc" } }),
    "this is not json",
    '{"jsonrpc":"2.0","id":8,"method":',
    req(9, "tools/call", { name: "palace_remember", arguments: { content: "x".repeat(300000), wing: "w", importance: 1 } }),
    req(10, "ping"),
    // Chinese text loads the segmenter (a C++ library): it must not print.
    req(11, "tools/call", { name: "palace_remember", arguments: { content: "我们决定使用SQLite作为存储后端，因为它不需要服务器。", wing: "w" } }),
  ];
  const { code, out, err } = await session(home, lines, ["--profile", "full"]);
  assert.equal(code, 0, `exit code; stderr:\n${err}`);
  const seen = new Map();
  for (const line of out.split("\n").filter((l) => l !== "")) {
    let m;
    assert.doesNotThrow(() => (m = JSON.parse(line)), `stdout line is not JSON: ${line.slice(0, 200)}`);
    assert.equal(m.jsonrpc, "2.0", `not JSON-RPC: ${line.slice(0, 200)}`);
    if (m.id !== undefined && m.id !== null) seen.set(m.id, (seen.get(m.id) ?? 0) + 1);
  }
  for (const id of [1, 2, 3, 4, 5, 6, 7, 9, 10, 11]) assert.equal(seen.get(id), 1, `request ${id} answered once`);
  const answers = Object.fromEntries(out.split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((m) => m.id != null).map((m) => [m.id, m]));
  assert.equal(answers[5].error.code, -32602);
  assert.equal(answers[6].result.isError, true);
  assert.equal(answers[7].result.isError, true);
  assert.equal(answers[9].result.structuredContent.added, true);
  assert.match(err, /serving MCP over stdio/, "diagnostics go to stderr");
});

test("serve --mcp --instructions prints the memory protocol and exits", async () => {
  const { stdout } = await promisify(execFile)(BIN, ["serve", "--mcp", "--instructions"], { env: childEnv() });
  assert.match(stdout, /^Palace is your long-term memory/);
  assert.match(stdout, /palace_diary/);
});
