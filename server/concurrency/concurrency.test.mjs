// Three real processes on one palace at once: `palace mine` of a large tree
// (a copy of parts of Go's src), the MCP SDK client remembering 1,000 notes
// through `palace serve --mcp`, and an LSP client saving files 1,000 times
// through `palace serve --lsp`, all with vectors on (the tiny test model).
// Then: no client saw an error, every write is there exactly once, the
// mined tree equals a solo mine of it, `palace doctor` finds the database,
// the FTS index, the vectors and the audit log in order, and the audit log
// has one applied line per note.
//
// The concurrent run happens once, in before(); each check is its own test
// so one failing check still lets the others report.
//
//   PALACE_BIN      the palace binary (run.sh builds one when unset)
//   PALACE_ORT_LIB  the ONNX Runtime library (run.sh sets .cache/ort-lib's,
//                   which `make build` installs; unset, the go backend embeds)
//   PALACE_LONG=1   mine all of $(go env GOROOT)/src instead of a subset
//   PALACE_KEEP=1   keep the temporary folder (palaces, tree, server logs)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  createProtocolConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const BIN = process.env.PALACE_BIN;
if (!BIN) throw new Error("set PALACE_BIN to the palace binary (run.sh does)");
const TINY = join(repo, "core", "embed", "testdata", "tiny");
const ORT = process.env.PALACE_ORT_LIB;
const LONG = process.env.PALACE_LONG === "1";

const NOTES = 1000;
const MCP_IN_FLIGHT = 4;
const FILES = 50;
const SAVES_PER_FILE = 20;
const LSP_IN_FLIGHT = 5; // each worker owns FILES / LSP_IN_FLIGHT files
const PACE_STEP = 25; // saves released together (see Pace)
// Notes and saves each client completes before the mine starts (the notes
// then wait for it; the saves' first burst is PACE_STEP).
const WARM_UP = 10;
// The share of MCP and of LSP writes that must land while the mine runs:
// most of them. Runs on a loaded 2-core machine measured 93% to 100%
// (the WARM_UP writes before the mine starts count against it).
const MIN_OVERLAP = 0.8;
// Parts of Go's src mined by default (about 1,800 files, 24,500 drawers):
// a large tree, yet the whole test stays under 3 minutes on 2 cores.
const SUBSET = ["net", "go", "encoding", "math", "time", "os", "image", "compress", "regexp", "archive", "database"];
// The mine's niceness (see startMine).
const MINE_NICE = 10;
const MINE_WING = "gosrc";
const NOTES_WING = "concnotes";

const root = mkdtempSync(join(tmpdir(), "palace-concurrency-"));
const home = join(root, "home"); // the palace all three processes share
const soloHome = join(root, "solo"); // the same tree mined alone
const proj = join(root, "lspproj"); // the LSP workspace folder
const start = performance.now();
const since = () => (performance.now() - start) / 1000;

// childEnv is what every palace process gets: no inherited PALACE_*
// settings, the tiny model, the ONNX Runtime library when there is one.
function childEnv() {
  const env = { HOME: root, PALACE_MODEL_DIR: TINY };
  for (const k of ["PATH", "LANG", "TMPDIR"]) if (process.env[k]) env[k] = process.env[k];
  if (ORT) env.PALACE_ORT_LIB = ORT;
  return env;
}

// palace runs a CLI command to the end and returns its exit code and output.
function palace(h, args) {
  return new Promise((done) => {
    execFile(BIN, ["--home", h, ...args], { env: childEnv(), maxBuffer: 1 << 30 }, (err, stdout, stderr) => {
      done({ code: err ? (err.code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function palaceJSON(h, args) {
  const r = await palace(h, [...args, "--json"]);
  if (r.code !== 0) throw new Error(`palace ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// exportRows streams `palace export` and calls fn with each row after the
// header: an export of all of Go's src is too large for one string. It
// settles on the child's 'close', not 'exit': stdout may still hold rows
// at 'exit', and by 'close' readline has seen its end and every line.
function exportRows(h, args, fn) {
  return new Promise((done, fail) => {
    const child = spawn(BIN, ["--home", h, "export", ...args], { env: childEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    let first = true;
    lines.on("line", (line) => {
      const row = JSON.parse(line);
      if (first) {
        first = false;
        if (row.type !== "header" || row.format !== "palace-export") fail(new Error(`export: no header: ${line.slice(0, 200)}`));
        return;
      }
      fn(row);
    });
    child.on("close", (code, signal) => {
      if (code !== 0) fail(new Error(`palace export exited ${code ?? signal}: ${stderr}`));
      else done();
    });
  });
}

// drawerKey is what two mines of the same tree must agree on.
const drawerKey = (r) =>
  [r.id, r.wing, r.room, r.kind, r.source, r.line_start, r.line_end, r.content_hash, r.source_mtime, r.deleted_at ?? ""].join("\t");

// ---------------------------------------------------------------- words

const WORDS = (
  "apple bridge candle desert engine forest garden harbor island jungle kettle ladder meadow needle orchard " +
  "pencil quarry rocket saddle timber umbrella valley window yogurt zipper anchor barrel cactus dolphin " +
  "eclipse falcon glacier hammock iceberg jasmine kayak lantern magnet nectar oyster parrot quiver raven " +
  "saffron tunnel violin walnut xylophone yarrow zenith amber basalt copper denim ember flint granite " +
  "hazel indigo jade khaki lilac marble nickel ochre pewter quartz russet sepia topaz umber velvet wheat"
).split(" ");

const pick = (n) => Array.from({ length: n }, () => WORDS[randomBytes(1)[0] % WORDS.length]).join(" ");
const hex8 = () => randomBytes(4).toString("hex");
// Unique words end in a digit, which the FTS porter stemmer leaves alone,
// and have a fixed width per kind, so none is a prefix of another.
const noteWord = (k) => `cn${String(k).padStart(4, "0")}q${hex8()}9`;
const markerWord = (f, s) => `lm${String(f).padStart(2, "0")}s${String(s).padStart(2, "0")}q${hex8()}9`;

// ---------------------------------------------------------------- the mine

// startMine starts `palace mine` of tree at a lower CPU priority, as one
// would run a large mine in the background: on 2 cores the clients come
// first and the mine takes what they leave, so it spans their whole runs.
// Without it the mine could end before the MCP client: the LSP server's
// background fill embeds the mine's drawers too, and a bigger tree does not
// help, since each palace_remember costs in proportion to the palace's
// drawers just as the mine's embedding does.
function startMine(tree) {
  const m = { startedAt: since(), stdout: "", stderr: "" };
  const argv = [BIN, "--home", home, "mine", tree, "--wing", MINE_WING, "--json", "--no-progress"];
  const child = spawn("nice", ["-n", String(MINE_NICE), ...argv], {
    env: childEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d) => (m.stdout += d));
  child.stderr.on("data", (d) => (m.stderr += d));
  m.done = new Promise((done) => {
    const end = (code, signal) => {
      m.endedAt ??= since();
      m.code ??= code;
      m.signal ??= signal;
      done(m);
    };
    // 'close', not 'exit': the summary on stdout is whole only then.
    child.on("close", end);
    child.on("error", (e) => {
      m.stderr += `spawn nice ${BIN}: ${e.message}`;
      end(-1, null);
    });
  });
  return m;
}

// ---------------------------------------------------------------- MCP

async function connectMCP(errors) {
  const transport = new StdioClientTransport({
    command: BIN,
    // The full profile: the checks search lexically (mode), a parameter
    // the default profile leaves out.
    args: ["--home", home, "serve", "--mcp", "--profile", "full", "--wing", NOTES_WING],
    env: childEnv(),
    stderr: "pipe",
  });
  const mcp = { stderr: "" };
  transport.stderr?.on("data", (d) => (mcp.stderr += d));
  const client = new Client({ name: "palace-concurrency-test", version: "1.0.0" });
  client.onerror = (e) => errors.push(`MCP client: ${e?.message ?? e}`);
  await client.connect(transport);
  mcp.client = client;
  return mcp;
}

// callTool returns a tool's structured result; a tool error or a protocol
// error is thrown with the tool's text.
async function callTool(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content ?? []).map((c) => c.text ?? "").join("");
  if (r.isError) throw new Error(`${name} tool error: ${text}`);
  return r.structuredContent ?? JSON.parse(text);
}

// rememberAll sends NOTES palace_remember calls, MCP_IN_FLIGHT at a time;
// the notes after the first WARM_UP wait for gate (the mine's start).
// force: the tiny test model's vectors are close for any two texts (cosine
// above the 0.9 near-duplicate threshold), so without it most unique notes
// would be refused as near duplicates; the duplicate checks still run.
async function rememberAll(client, errors, pace, gate) {
  const notes = [];
  let next = 0;
  async function worker() {
    while (next < NOTES) {
      const k = next++;
      if (k >= WARM_UP) await gate;
      const word = noteWord(k);
      const content = `Concurrency note ${k} (${word}): ${pick(12)}.`;
      const n = { k, word, content, sentAt: since() };
      notes.push(n);
      try {
        const r = await callTool(client, "palace_remember", { content, source: "concurrency-test", force: true });
        n.doneAt = since();
        if (r.added !== true || !/^d_[0-9a-f]+$/.test(r.id ?? "")) {
          errors.push(`palace_remember ${k}: not added: ${JSON.stringify(r).slice(0, 300)}`);
        } else {
          n.id = r.id;
        }
      } catch (e) {
        n.doneAt = since();
        errors.push(`palace_remember ${k}: ${e.message}`);
      }
      pace.tick();
    }
  }
  await Promise.all(Array.from({ length: MCP_IN_FLIGHT }, worker));
  pace.end();
  return notes.sort((a, b) => a.k - b.k);
}

// Pace keeps the LSP client in step with the MCP client, so that both
// write for the same stretch of time (alone, the LSP client is about three
// times faster) and the mine overlaps each for its whole run. It counts
// the notes answered, and saves wait for their share.
class Pace {
  constructor() {
    this.done = 0;
    this.waiters = [];
  }

  tick(by = 1) {
    this.done += by;
    this.waiters = this.waiters.filter((w) => (this.done >= w.n ? (w.resolve(), false) : true));
  }

  // end releases every save: the notes are all answered.
  end() {
    this.tick(Infinity);
  }

  until(n) {
    return this.done >= n ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ n, resolve }));
  }
}

// ---------------------------------------------------------------- LSP

// LSPClient speaks LSP over the server's stdio with
// vscode-languageserver-protocol, answers the server's own requests as an
// editor does, and hands each palace/didIndex to the save waiting for it.
class LSPClient {
  constructor(errors) {
    this.stderr = "";
    this.waiting = new Map(); // uri -> {done, fail} of the save waiting for its didIndex
    this.unexpected = []; // didIndex notifications no save was waiting for
    this.proc = spawn(BIN, ["--home", home, "serve", "--lsp"], { env: childEnv(), stdio: ["pipe", "pipe", "pipe"] });
    this.proc.stderr.on("data", (d) => (this.stderr += d));
    this.exited = new Promise((done) =>
      this.proc.on("exit", (code, signal) => {
        // A server that dies answers no save: fail them now, not at their timeouts.
        for (const w of this.waiting.values()) w.fail(new Error(`the LSP server exited (${code ?? signal}):\n${this.stderr.slice(-2000)}`));
        this.waiting.clear();
        done({ code, signal });
      }),
    );
    const conn = createProtocolConnection(new StreamMessageReader(this.proc.stdout), new StreamMessageWriter(this.proc.stdin));
    this.conn = conn;
    conn.onRequest("window/workDoneProgress/create", () => null);
    conn.onRequest("client/registerCapability", () => null);
    conn.onRequest((method) => {
      errors.push(`LSP: the server sent a request this client does not handle: ${method}`);
      return new ResponseError(-32601, `unhandled: ${method}`);
    });
    // The startup mine reports work-done progress; its end says whether it failed.
    conn.onUnhandledProgress(({ value }) => {
      if (value?.kind === "end" && /^failed/.test(value.message ?? "")) errors.push(`LSP mine: ${value.message}`);
    });
    conn.onNotification("palace/didIndex", (p) => {
      const w = this.waiting.get(p.uri);
      if (!w) {
        this.unexpected.push(p);
        return;
      }
      this.waiting.delete(p.uri);
      w.done(p);
    });
    conn.onNotification((method, params) => {
      // MessageType 1 is Error.
      if ((method === "window/showMessage" || method === "window/logMessage") && params?.type === 1) {
        errors.push(`LSP ${method}: ${params.message}`);
      }
    });
    conn.onError(([e]) => errors.push(`LSP connection: ${e?.message ?? e}`));
    conn.onClose(() => {
      if (!this.closing) errors.push("LSP connection closed before shutdown");
    });
    conn.listen();
  }

  async initialize(folder) {
    const uri = pathToFileURL(folder).href;
    await this.conn.sendRequest("initialize", {
      processId: process.pid,
      clientInfo: { name: "palace-concurrency-test" },
      rootUri: uri,
      workspaceFolders: [{ uri, name: "lspproj" }],
      capabilities: {
        window: { workDoneProgress: true },
        workspace: { workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
        textDocument: { synchronization: { didSave: true } },
      },
    });
    await this.conn.sendNotification("initialized", {});
  }

  // save writes text to path, sends didSave and resolves with its
  // palace/didIndex. Only one save of a file is in flight at a time, so
  // each save gets its own answer even when the server mines a burst of
  // saves (of other files) together.
  async save(path, text, timeoutMs = 120000) {
    const uri = pathToFileURL(path).href;
    if (this.waiting.has(uri)) throw new Error(`a save of ${uri} is already waiting`);
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) throw new Error("the LSP server has exited");
    writeFileSync(path, text);
    const answered = new Promise((done, fail) => {
      const timer = setTimeout(() => {
        this.waiting.delete(uri);
        fail(new Error(`no palace/didIndex for ${uri} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(uri, {
        done: (p) => {
          clearTimeout(timer);
          done(p);
        },
        fail: (e) => {
          clearTimeout(timer);
          fail(e);
        },
      });
    });
    await this.conn.sendNotification("textDocument/didSave", { textDocument: { uri } });
    return answered;
  }

  request(method, params) {
    return this.conn.sendRequest(method, params);
  }

  async shutdown() {
    await this.conn.sendRequest("shutdown");
    this.closing = true;
    await this.conn.sendNotification("exit");
    const exit = await this.exited;
    this.conn.dispose();
    return exit;
  }

  kill() {
    this.closing = true;
    if (this.proc.exitCode === null) this.proc.kill("SIGKILL");
    this.conn.dispose();
  }
}

const lspFile = (f) => join(proj, f % 2 ? "docs" : "src", `f${String(f).padStart(2, "0")}.${f % 2 ? "md" : "txt"}`);

// lspText is a file small enough to be one drawer, whose one changing line
// is the marker of its latest save.
const lspText = (f, marker) =>
  `File ${f} of the concurrency test's editor workspace.\n` +
  `Every save rewrites the marker line below with a new word.\n` +
  `marker ${marker}\n` +
  `The rest stays: ${WORDS.slice(f, f + 8).join(" ")}.\n`;

// saveAll saves each of FILES files SAVES_PER_FILE times, LSP_IN_FLIGHT
// workers at once, each owning its files, released in bursts of PACE_STEP
// saves as the notes progress (a burst's saves reach the server together
// and may be mined together). After each palace/didIndex it asks
// palace/search for the new marker (exactly the saved file) and for the
// file's previous marker (gone).
async function saveAll(lsp, errors, pace, saved) {
  const files = Array.from({ length: FILES }, (_, f) => ({ f, path: lspFile(f), markers: [] }));
  const saves = [];
  const share = NOTES / (FILES * SAVES_PER_FILE);
  async function worker(w) {
    const mine = files.filter((x) => x.f % LSP_IN_FLIGHT === w);
    for (let s = 0; s < SAVES_PER_FILE; s++) {
      for (const file of mine) {
        const j = saves.length;
        const marker = markerWord(file.f, s);
        const sv = { f: file.f, s, marker };
        saves.push(sv);
        await pace.until(Math.floor(j / PACE_STEP) * PACE_STEP * share);
        sv.sentAt = since();
        const prev = file.markers.at(-1);
        file.markers.push(marker);
        let p;
        try {
          p = await lsp.save(file.path, lspText(file.f, marker));
        } catch (e) {
          errors.push(`save ${file.f}/${s}: ${e.message}`);
          continue;
        }
        sv.doneAt = since();
        saved.tick();
        sv.ms = p.ms;
        sv.wing = p.wing;
        if (p.error || p.skipped || p.drawers !== 1) {
          errors.push(`save ${file.f}/${s}: palace/didIndex ${JSON.stringify(p)}`);
        }
        try {
          const now = await lsp.request("palace/search", { query: marker, wing: p.wing, mode: "lexical", limit: 5 });
          if (now.hits.length !== 1 || now.hits[0].source !== file.path) {
            errors.push(`save ${file.f}/${s}: palace/search ${marker} after didIndex: ${now.hits.map((h) => h.source).join(", ") || "no hit"}`);
          }
          if (prev) {
            const old = await lsp.request("palace/search", { query: prev, wing: p.wing, mode: "lexical", limit: 5 });
            if (old.hits.length !== 0) errors.push(`save ${file.f}/${s}: the previous marker ${prev} is still found after didIndex`);
          }
        } catch (e) {
          errors.push(`save ${file.f}/${s}: palace/search: ${e.message}`);
        }
      }
    }
  }
  await Promise.all(Array.from({ length: LSP_IN_FLIGHT }, (_, w) => worker(w)));
  saved.end();
  return { files, saves };
}

// ---------------------------------------------------------------- setup

function goSrc() {
  try {
    return join(execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim(), "src");
  } catch (e) {
    throw new Error(`go env GOROOT: ${e.message} (the test mines Go's src: Go must be on PATH)`);
  }
}

// mineTree is the tree the CLI mines: all of Go's src with PALACE_LONG=1,
// else a copy of SUBSET in one folder.
function mineTree() {
  const src = goSrc();
  if (LONG) return src;
  const tree = join(root, MINE_WING);
  for (const d of SUBSET) cpSync(join(src, d), join(tree, d), { recursive: true, preserveTimestamps: true });
  return tree;
}

const run = { errors: [] };

before(
  async () => {
    run.tree = mineTree();
    mkdirSync(join(proj, "src"), { recursive: true });
    mkdirSync(join(proj, "docs"), { recursive: true });
    for (let f = 0; f < FILES; f++) writeFileSync(lspFile(f), lspText(f, "initial"));

    // The reference: the same tree mined alone, lexically (the drawer set
    // does not depend on vectors).
    const t = performance.now();
    const solo = await palace(soloHome, ["mine", run.tree, "--wing", MINE_WING, "--no-vectors", "--json", "--no-progress"]);
    if (solo.code !== 0) throw new Error(`solo mine exited ${solo.code}: ${solo.stderr}`);
    run.solo = { seconds: (performance.now() - t) / 1000, summary: JSON.parse(solo.stdout) };

    // Both servers first, then the mine once both clients are writing, all
    // on one palace. Started together, the mine's file commits (its first
    // seconds) could all land before the LSP client's first save, as they
    // did once in CI; started into running clients they cannot.
    const errors = run.errors;
    const [mcp, lsp] = await Promise.all([
      connectMCP(errors),
      (async () => {
        const c = new LSPClient(errors);
        await c.initialize(proj);
        return c;
      })(),
    ]);
    run.mcp = mcp;
    run.lsp = lsp;
    const pace = new Pace();
    const saved = new Pace();
    let open;
    const gate = new Promise((resolve) => (open = resolve));
    const writing = Promise.all([
      rememberAll(mcp.client, errors, pace, gate).then((x) => ((run.mcpDoneAt = since()), x)),
      saveAll(lsp, errors, pace, saved).then((x) => ((run.lspDoneAt = since()), x)),
    ]);
    await Promise.all([pace.until(WARM_UP), saved.until(WARM_UP)]);
    run.warm = { notes: pace.done, saves: saved.done };
    run.mine = startMine(run.tree);
    open();
    const [notes, lspRun] = await writing;
    run.notes = notes;
    run.lspRun = lspRun;
    await run.mine.done;
    try {
      run.lspStatus = await lsp.request("palace/status", {});
    } catch (e) {
      errors.push(`palace/status: ${e.message}`);
    }
    try {
      run.lspExit = await lsp.shutdown();
    } catch (e) {
      errors.push(`LSP shutdown: ${e.message}`);
      lsp.kill();
    }
  },
  { timeout: (LONG ? 90 : 20) * 60 * 1000 },
);

after(async () => {
  await run.mcp?.client.close();
  run.lsp?.kill();
  if (process.env.PALACE_KEEP === "1") {
    writeFileSync(join(root, "mine.log"), `${run.mine?.stderr ?? ""}\n${run.mine?.stdout ?? ""}`);
    writeFileSync(join(root, "mcp.log"), run.mcp?.stderr ?? "");
    writeFileSync(join(root, "lsp.log"), run.lsp?.stderr ?? "");
    process.stderr.write(`concurrency: kept ${root}\n`);
  } else {
    rmSync(root, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------- checks

test("no client saw an error", () => {
  const m = run.mine;
  assert.equal(m.code, 0, `palace mine exited ${m.code} (${m.signal ?? "no signal"}):\n${m.stderr}`);
  assert.deepEqual(JSON.parse(m.stdout).errors, [], "the mine reported errors");
  assert.deepEqual(run.errors, [], `client errors (${run.errors.length}):\n${run.errors.slice(0, 20).join("\n")}`);
  assert.deepEqual(run.lspExit, { code: 0, signal: null }, "the LSP server's exit after shutdown");
  assert.deepEqual(run.lsp.unexpected, [], "palace/didIndex notifications that answered no save");
  const mcpErrors = run.mcp.stderr.split("\n").filter((l) => /level=(ERROR|WARN)/.test(l));
  assert.deepEqual(mcpErrors, [], "errors in the MCP server's log");
});

// auditLog is `palace audit --json`, read once.
async function auditLog() {
  run.audit ??= await palaceJSON(home, ["audit"]);
  return run.audit;
}

test("the mine ran while most MCP and LSP writes happened, and their commits interleaved", async () => {
  const end = run.mine.endedAt;
  const notes = run.notes.filter((n) => n.id);
  const saves = run.lspRun.saves.filter((s) => s.doneAt !== undefined);
  const during = (x) => x.doneAt > run.mine.startedAt && x.doneAt < end;
  const mcpIn = notes.filter(during).length / notes.length;
  const lspIn = saves.filter(during).length / saves.length;
  run.overlap = { mcp: mcpIn, lsp: lspIn };
  assert.ok(run.warm.notes >= WARM_UP && run.warm.saves >= WARM_UP, `both clients were writing when the mine started: ${JSON.stringify(run.warm)}`);
  assert.ok(mcpIn >= MIN_OVERLAP, `only ${(mcpIn * 100).toFixed(1)}% of the notes were written while the mine ran (mine ended at ${end.toFixed(1)} s)`);
  assert.ok(lspIn >= MIN_OVERLAP, `only ${(lspIn * 100).toFixed(1)}% of the saves were indexed while the mine ran (mine ended at ${end.toFixed(1)} s)`);
  // The audit log is in commit order: notes and LSP mines must commit
  // between the CLI mine's first and last file commits, not only during its
  // embedding phase.
  const log = await auditLog();
  const at = log.map((e, i) => ({ ...e, i }));
  const cli = at.filter((e) => e.actor === "cli" && e.op === "source.replace");
  assert.ok(cli.length > 0, "the mine's file commits are in the audit log");
  const [from, to] = [cli[0].i, cli.at(-1).i];
  const between = (e) => e.i > from && e.i < to;
  run.interleave = {
    cliCommits: cli.length,
    notes: at.filter((e) => e.op === "note.add" && between(e)).length,
    lsp: at.filter((e) => e.actor === "lsp" && e.op === "source.replace" && between(e)).length,
  };
  assert.ok(run.interleave.notes > 0, `no note committed between the mine's first and last file commits: ${JSON.stringify(run.interleave)}`);
  assert.ok(run.interleave.lsp > 0, `no LSP mine committed between the mine's first and last file commits: ${JSON.stringify(run.interleave)}`);
});

test("every note is stored exactly once: palace_get by id, and a search for its word finds only it", async () => {
  const client = run.mcp.client;
  assert.equal(run.notes.length, NOTES);
  const ids = new Set(run.notes.map((n) => n.id));
  assert.equal(ids.size, NOTES, "each note has its own id");
  const bad = [];
  for (const n of run.notes) {
    const got = await callTool(client, "palace_get", { id: n.id });
    if (got.content !== n.content || got.wing !== NOTES_WING || got.deleted_at) {
      bad.push(`${n.id}: palace_get gives ${JSON.stringify(got).slice(0, 200)}`);
    }
    const found = await callTool(client, "palace_search", { query: n.word, wing: NOTES_WING, mode: "lexical", limit: 10 });
    if (found.hits.length !== 1 || found.hits[0].id !== n.id) {
      bad.push(`${n.word}: search finds ${found.hits.map((h) => h.id).join(", ") || "nothing"}, want ${n.id}`);
    }
  }
  assert.deepEqual(bad.slice(0, 20), [], `${bad.length} notes not found exactly once`);
});

test("every saved file holds its last marker, in one drawer, and no earlier marker remains", async () => {
  const client = run.mcp.client;
  const wing = run.lspRun.saves.find((s) => s.wing)?.wing;
  assert.ok(wing, "palace/didIndex names the workspace's wing");
  assert.equal(run.lspRun.saves.length, FILES * SAVES_PER_FILE);
  const bad = [];
  for (const file of run.lspRun.files) {
    assert.equal(file.markers.length, SAVES_PER_FILE, `file ${file.f} saves`);
    const last = file.markers.at(-1);
    const found = await callTool(client, "palace_search", { query: last, wing, mode: "lexical", limit: 10 });
    if (found.hits.length !== 1 || found.hits[0].source !== file.path) {
      bad.push(`${file.path}: last marker ${last} found in ${found.hits.map((h) => h.source).join(", ") || "nothing"}`);
    }
    for (const old of file.markers.slice(0, -1)) {
      const stale = await callTool(client, "palace_search", { query: old, wing, mode: "lexical", limit: 10 });
      if (stale.hits.length) bad.push(`${file.path}: stale marker ${old} still found`);
    }
  }
  assert.deepEqual(bad.slice(0, 20), [], `${bad.length} problems with saved files`);
});

// The palace's own rows, read once through `palace export` after every
// process has stopped.
async function exported() {
  if (run.exported) return run.exported;
  const x = { mined: new Set(), taxonomy: [], notes: new Map(), files: new Map(), other: 0, deleted: 0 };
  const wing = run.lspRun.saves.find((s) => s.wing)?.wing;
  await exportRows(home, [], (row) => {
    if (row.type === "taxonomy" && row.row.wing === MINE_WING) x.taxonomy.push(JSON.stringify(row.row));
    if (row.type !== "drawer") return;
    const d = row.row;
    if (d.deleted_at) x.deleted++;
    if (d.wing === MINE_WING) x.mined.add(drawerKey(d));
    else if (d.wing === NOTES_WING) x.notes.set(d.id, d);
    else if (d.wing === wing) x.files.set(d.id, d);
    else x.other++;
  });
  const solo = { mined: new Set(), taxonomy: [] };
  await exportRows(soloHome, ["--wing", MINE_WING], (row) => {
    if (row.type === "taxonomy") solo.taxonomy.push(JSON.stringify(row.row));
    if (row.type === "drawer") solo.mined.add(drawerKey(row.row));
  });
  x.solo = solo;
  run.exported = x;
  return x;
}

test("the export holds each note and each file once, and nothing else", async () => {
  const x = await exported();
  assert.equal(x.deleted, 0, "no drawer is deleted");
  assert.equal(x.other, 0, "no drawer in another wing");
  assert.equal(x.notes.size, NOTES, "note drawers");
  for (const n of run.notes) {
    const d = x.notes.get(n.id);
    assert.ok(d, `note ${n.k} (${n.id}) is in the export`);
    assert.equal(d.content, n.content, `note ${n.k}'s content`);
  }
  assert.equal(x.files.size, FILES, "one drawer per saved file");
  const byPath = new Map([...x.files.values()].map((d) => [d.source, d]));
  for (const file of run.lspRun.files) {
    const d = byPath.get(file.path);
    assert.ok(d, `${file.path} has a drawer`);
    assert.equal(d.content, lspText(file.f, file.markers.at(-1)), `${file.path}'s drawer is its last save`);
  }
});

test("the mined tree equals a solo mine of the same tree", async () => {
  const x = await exported();
  const summary = JSON.parse(run.mine.stdout);
  assert.equal(x.mined.size, run.solo.summary.drawers_added, "drawers of the solo mine");
  assert.equal(summary.drawers_added, run.solo.summary.drawers_added, "drawers added by each mine");
  const missing = [...x.solo.mined].filter((k) => !x.mined.has(k));
  const extra = [...x.mined].filter((k) => !x.solo.mined.has(k));
  assert.deepEqual(missing.slice(0, 5), [], `${missing.length} drawers of the solo mine are missing`);
  assert.deepEqual(extra.slice(0, 5), [], `${extra.length} drawers the solo mine does not have`);
  assert.deepEqual(x.taxonomy, x.solo.taxonomy, "the mined wing's taxonomy");
});

// doctor runs `palace doctor --json`, which exits 1 when a check fails but
// still prints its report.
async function doctor() {
  const r = await palace(home, ["doctor", "--json"]);
  let doc;
  try {
    doc = JSON.parse(r.stdout);
  } catch {
    throw new Error(`palace doctor exited ${r.code} without a report: ${r.stderr}`);
  }
  return { doc, code: r.code, stderr: r.stderr };
}

test("palace doctor: ORT or go backend with the tiny model; integrity, fts, vectors and audit ok", async () => {
  let { doc, code, stderr } = await doctor();
  run.pendingAtEnd = doc.embedding.pending;
  if (doc.embedding.pending > 0) {
    // Vectors follow the lexical index and are resumable: a server shut
    // down mid-fill leaves the rest to the next fill.
    run.reindex = await palaceJSON(home, ["reindex"]);
    ({ doc, code, stderr } = await doctor());
  }
  run.doctor = doc;
  const e = doc.embedding;
  assert.ok(["ort", "go"].includes(e.backend), `embedding backend ${e.backend}: ${e.reason}`);
  assert.equal(e.model_dir, TINY, "the model folder");
  assert.match(e.model, /^tiny-/, "the vectors' model");
  assert.equal(doc.integrity, "ok");
  assert.equal(e.pending, 0, "drawers without a vector");
  const status = await palaceJSON(home, ["status"]);
  assert.equal(e.vectors, status.drawers, "one vector per live drawer");
  assert.ok(Array.isArray(doc.checks), `palace doctor --json has no "checks" (keys: ${Object.keys(doc).join(", ")})`);
  const byName = Object.fromEntries(doc.checks.map((c) => [c.name, c]));
  for (const name of ["integrity", "fts", "vectors", "audit"]) {
    assert.ok(byName[name], `doctor check ${name} is reported`);
    assert.equal(byName[name].ok, true, `doctor check ${name}: ${byName[name].detail}`);
  }
  assert.equal(doc.ok, true, "doctor ok");
  assert.equal(code, 0, `palace doctor exit code: ${stderr}`);
});

test("the audit log has one applied line per note and no failed write", async () => {
  const log = await auditLog();
  const failed = log.filter((e) => e.status !== "applied");
  assert.deepEqual(failed.slice(0, 5), [], `${failed.length} audit lines are not applied`);
  const noteLines = log.filter((e) => e.op === "note.add");
  const count = new Map();
  for (const e of noteLines) {
    assert.equal(e.actor, "mcp", "notes are written by the MCP server");
    for (const id of e.ids ?? []) count.set(id, (count.get(id) ?? 0) + 1);
  }
  const wrong = run.notes.filter((n) => count.get(n.id) !== 1).map((n) => `${n.id}: ${count.get(n.id) ?? 0} lines`);
  assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} notes without exactly one applied line`);
  assert.equal(noteLines.length, NOTES, "note.add lines");
});

after(() => {
  // A short summary for the log: durations, writes per client, overlap.
  if (!run.mine?.endedAt) return;
  const summary = (() => {
    try {
      return JSON.parse(run.mine.stdout);
    } catch {
      return {};
    }
  })();
  const pct = (x) => (x === undefined ? "?" : `${(x * 100).toFixed(0)}%`);
  const ms = run.lspRun?.saves.map((s) => s.ms).filter((x) => x !== undefined).sort((a, b) => a - b) ?? [];
  const lines = [
    `concurrency: tree ${run.tree} (${LONG ? "all of Go's src" : SUBSET.length + " parts of Go's src"}); solo lexical mine ${run.solo?.seconds.toFixed(1)} s`,
    `concurrency: mine ${run.mine.startedAt.toFixed(1)}-${run.mine.endedAt.toFixed(1)} s: ${summary.files_mined} files, ${summary.drawers_added} drawers, ${summary.vectors?.embedded} of all drawers embedded by the mine, the rest by the servers (${summary.vectors?.backend})`,
    `concurrency: MCP ${run.notes?.filter((n) => n.id).length}/${NOTES} notes, LSP ${run.lspRun?.saves.filter((s) => s.doneAt !== undefined).length}/${FILES * SAVES_PER_FILE} saves (didIndex p50 ${ms[Math.floor(ms.length / 2)]?.toFixed(0)} ms, p95 ${ms[Math.floor(ms.length * 0.95)]?.toFixed(0)} ms, ${run.lspStatus?.server?.mines} server mines); done at ${run.mcpDoneAt?.toFixed(1)} s and ${run.lspDoneAt?.toFixed(1)} s`,
    `concurrency: the mine started after ${run.warm?.notes} notes and ${run.warm?.saves} saves; written while it ran: MCP ${pct(run.overlap?.mcp)}, LSP ${pct(run.overlap?.lsp)}; committed between the mine's first and last file commits (${run.interleave?.cliCommits} commits): ${run.interleave?.notes} notes, ${run.interleave?.lsp} LSP mines`,
    `concurrency: vectors pending at the end ${run.pendingAtEnd ?? "?"}${run.reindex ? ` (reindex embedded ${run.reindex.embedded})` : ""}; LSP busy retries ${(run.lsp?.stderr.match(/palace is busy/g) ?? []).length}; client errors ${run.errors.length}; total ${since().toFixed(1)} s`,
  ];
  process.stderr.write(lines.join("\n") + "\n");
});
