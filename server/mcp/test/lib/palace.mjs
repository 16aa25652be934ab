// Shared helpers for the MCP integration tests: where the binaries are,
// temporary palaces, starting the server under a real MCP client.
import { spawn, execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, "..", "..", "..", "..");
export const testDir = resolve(here, "..");

// PALACE_BIN runs `serve --mcp`; PALACE_CLI runs the other commands (mine,
// search) and defaults to PALACE_BIN.
export const BIN = process.env.PALACE_BIN;
export const CLI = process.env.PALACE_CLI || BIN;
if (!BIN) throw new Error("set PALACE_BIN to the palace binary (run.sh does)");

// The test embedding model the repository ships, so searches are hybrid.
export const TINY_MODEL = join(repoRoot, "core", "embed", "testdata", "tiny");

// The environment every child gets: no inherited PALACE_* settings, the
// ONNX Runtime library when there is one, and a private HOME.
export function childEnv(extra = {}) {
  const env = {};
  for (const k of ["PATH", "LANG", "TMPDIR", "PALACE_ORT_LIB"]) {
    if (process.env[k]) env[k] = process.env[k];
  }
  return { ...env, ...extra };
}

export function tempDir(t, prefix = "palace-mcp-") {
  const d = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

export function writeTree(root, files) {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  return root;
}

const run = promisify(execFile);

// cli runs a palace command and returns its parsed --json output.
export async function cli(home, args, { json = true, model = true } = {}) {
  const argv = ["--home", home, ...(model ? ["--model-dir", TINY_MODEL] : []), ...args, ...(json ? ["--json"] : [])];
  const { stdout } = await run(CLI, argv, { env: childEnv({ HOME: home }), maxBuffer: 64 << 20 });
  return json ? JSON.parse(stdout) : stdout;
}

export function serveArgs(home, extra = [], { model = true } = {}) {
  return ["--home", home, ...(model ? ["--model-dir", TINY_MODEL] : []), "serve", "--mcp", ...extra];
}

// connect starts `palace serve --mcp` under the SDK's stdio client. roots,
// when given, are folders the client offers as MCP roots.
export async function connect(t, home, { args = [], roots, model = true, name = "palace-node-test" } = {}) {
  const transport = new StdioClientTransport({
    command: BIN,
    args: serveArgs(home, args, { model }),
    env: childEnv({ HOME: home }),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = new Client({ name, version: "1.0.0" }, { capabilities: roots ? { roots: { listChanged: true } } : {} });
  const state = { rootsAsked: 0, roots };
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      state.rootsAsked++;
      return { roots: state.roots.map((d) => ({ uri: pathToFileURL(d).href, name: d.split("/").pop() })) };
    });
  }
  const errors = [];
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  t.after(async () => {
    await client.close();
  });
  return { client, state, errors, stderr: () => stderr };
}

// startHTTP starts `palace serve --mcp --http 127.0.0.1:0` and returns the
// endpoint URL (read from its stderr), the token and a stop function.
export async function startHTTP(t, home, { args = [] } = {}) {
  const child = spawn(BIN, serveArgs(home, ["--http", "127.0.0.1:0", ...args]), {
    env: childEnv({ HOME: home }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  const url = await new Promise((resolveURL, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL on stderr in 30s:\n${stderr}`)), 30000);
    timer.unref();
    child.stderr.on("data", (d) => {
      stderr += d;
      const m = stderr.match(/(http:\/\/127\.0\.0\.1:\d+\/mcp)/);
      if (m) {
        clearTimeout(timer);
        resolveURL(m[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}:\n${stderr}`)));
  });
  const token = readFileSync(join(home, "mcp-token"), "utf8").trim();
  const stop = () =>
    new Promise((r) => {
      if (child.exitCode !== null) return r(child.exitCode);
      child.once("exit", (code) => r(code));
      child.kill("SIGTERM");
    });
  t.after(stop);
  return { url, token, stop, stdout: () => stdout, stderr: () => stderr };
}

export async function connectHTTP(t, url, token) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "palace-node-http-test", version: "1.0.0" });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

// call invokes a tool and returns its structured content; a tool error
// fails with its text.
export async function call(client, name, args = {}) {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content ?? []).map((c) => c.text ?? "").join("");
  if (r.isError) throw new Error(`${name} tool error: ${text}`);
  if (JSON.stringify(r.structuredContent) !== JSON.stringify(JSON.parse(text))) {
    throw new Error(`${name}: text content and structuredContent differ`);
  }
  return r.structuredContent;
}

// toolError invokes a tool that must fail as a tool result (isError).
export async function toolError(client, name, args = {}) {
  const r = await client.callTool({ name, arguments: args });
  if (!r.isError) throw new Error(`${name}: expected a tool error, got ${JSON.stringify(r.structuredContent)}`);
  return (r.content ?? []).map((c) => c.text ?? "").join("");
}
