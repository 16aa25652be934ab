// Drives the real palace binary with the official MCP TypeScript SDK client
// over stdio and streamable HTTP.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { mkdirSync, symlinkSync } from "node:fs";
import Ajv from "ajv";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

import { tempDir, writeTree, connect, startHTTP, connectHTTP, call, toolError, cli } from "./lib/palace.mjs";

// The core profile (the default) holds a session loop's tools; the full
// profile (--profile full) adds the rest.
const TOOLS = [
  "palace_diary", "palace_forget", "palace_get", "palace_kg",
  "palace_remember", "palace_search", "palace_status", "palace_wake_up",
];
const FULL_TOOLS = [...TOOLS, "palace_kg_graph", "palace_kg_review", "palace_mine", "palace_taxonomy"].sort();
const FULL = ["--profile", "full"];

test("initialize: server info, capabilities and the memory protocol", async (t) => {
  const { client } = await connect(t, tempDir(t));
  assert.equal(client.getServerVersion().name, "palace");
  const caps = client.getServerCapabilities();
  for (const c of ["tools", "resources", "prompts", "logging", "completions"]) assert.ok(caps[c], `capability ${c}`);
  const instr = client.getInstructions();
  assert.match(instr, /Before answering about this project's past/);
  assert.match(instr, /palace_remember/);
});

test("tools/list: each profile's set with valid, strict schemas and the hints the spec needs", async (t) => {
  for (const [args, want] of [[[], TOOLS], [FULL, FULL_TOOLS]]) {
    const { client } = await connect(t, tempDir(t), { args });
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((x) => x.name).sort(), want);
    if (args.length === 0) {
      // Issue 43: the default profile costs at most 8,000 characters
      // (about 2,000 tokens) before the first call.
      const cost = client.getInstructions().length + JSON.stringify({ tools }).length;
      assert.ok(cost <= 8000, `default profile start cost ${cost} characters`);
    }
    const ajv = new Ajv({ strict: true, allErrors: true });
    for (const tool of tools) {
      // Each schema compiles under ajv's strict mode: no unknown keywords.
      assert.doesNotThrow(() => ajv.compile(tool.inputSchema), `${tool.name} schema`);
      assert.equal(tool.inputSchema.type, "object");
      assert.equal(tool.inputSchema.additionalProperties, false, `${tool.name} refuses unknown parameters`);
      // Hints whose absence means true are given; a read-only tool says so.
      assert.equal(tool.annotations.openWorldHint, false);
      if (tool.annotations.readOnlyHint !== true) {
        assert.equal(typeof tool.annotations.destructiveHint, "boolean", `${tool.name}.destructiveHint set`);
      }
      for (const [name, prop] of Object.entries(tool.inputSchema.properties ?? {})) {
        assert.ok(prop.description?.length > 15, `${tool.name}.${name} described`);
        assert.equal(prop.format, undefined, `${tool.name}.${name} has no (uint) format`);
        if (prop.type === "integer" && prop.minimum !== undefined) assert.ok(prop.minimum >= 0);
      }
    }
    const ro = Object.fromEntries(tools.map((x) => [x.name, x.annotations.readOnlyHint]));
    assert.equal(ro.palace_search, true);
    assert.ok(!ro.palace_remember);
    assert.equal(tools.find((x) => x.name === "palace_forget").annotations.destructiveHint, true);
  }
});

test("remember, search, get, forget: a round trip", async (t) => {
  // The full profile: the note names its source (ADR-12).
  const { client } = await connect(t, tempDir(t), { args: ["--wing", "shop", ...FULL] });
  const note = "Checkout retries use idempotency keys, so a retried payment never double-charges.";
  const rem = await call(client, "palace_remember", { content: note, room: "decisions", importance: 5, source: "ADR-12" });
  assert.equal(rem.added, true);
  assert.equal(rem.wing, "shop");
  const dup = await call(client, "palace_remember", { content: note });
  assert.equal(dup.added, false);
  assert.equal(dup.duplicates[0].id, rem.id);

  // Compact within 1500 tokens by default: the snippet, not the content,
  // which palace_get (or detail full) gives.
  const res = await call(client, "palace_search", { query: "idempotency retried payment" });
  assert.equal(res.hits[0].id, rem.id);
  assert.equal(res.hits[0].content, undefined);
  assert.match(res.hits[0].snippet, /\*\*idempotency\*\*/);
  assert.equal(res.hits[0].citation, "ADR-12");
  assert.ok(res.hits[0].time, "hit has a time");
  assert.ok("route" in res && "mode" in res);
  assert.deepEqual([res.detail, res.budget, res.omitted], ["compact", 1500, 0]);
  assert.ok(res.tokens > 0 && res.tokens <= 1500, `tokens ${res.tokens}`);
  const full = await call(client, "palace_search", { query: "idempotency retried payment", detail: "full" });
  assert.equal(full.hits[0].content, note);

  const got = await call(client, "palace_get", { id: rem.id });
  assert.equal(got.content, note);
  const resource = await client.readResource({ uri: `palace://drawer/${rem.id}` });
  assert.equal(resource.contents[0].text, note);

  const f = await call(client, "palace_forget", { id: rem.id });
  assert.equal(f.deleted, true);
  assert.equal((await call(client, "palace_search", { query: "idempotency retried payment" })).hits.length, 0);
  assert.equal((await call(client, "palace_forget", { id: rem.id })).already_deleted, true);
  assert.ok((await call(client, "palace_get", { id: rem.id })).deleted_at);
});

test("knowledge graph: a contradiction is reported and nothing is written", async (t) => {
  const { client } = await connect(t, tempDir(t));
  const a = await call(client, "palace_kg", { action: "add", subject: "Alice", predicate: "works_at", object: "Acme", valid_from: "2020-01-01" });
  assert.equal(a.added, true);
  // The conflict outcome: a tool error that names the conflicting fact, in
  // the words the CLI prints (exit 3).
  const b = await toolError(client, "palace_kg", { action: "add", subject: "alice", predicate: "works at", object: "Globex", valid_from: "2023-06-01" });
  assert.match(b, /^conflict: works_at holds one value at a time and .*Alice works_at Acme \(since 2020-01-01\).*nothing written/);
  assert.doesNotMatch(b, /conflict: conflict:/);
  const q = await call(client, "palace_kg", { action: "query", entity: "Alice" });
  assert.deepEqual(q.facts.map((f) => f.object), ["Acme"]);
  const s = await call(client, "palace_kg", { action: "add", subject: "Alice", predicate: "works_at", object: "Globex", valid_from: "2023-06-01", supersede: true });
  assert.equal(s.added, true);
  assert.equal(s.superseded[0].object, "Acme");
});

test("knowledge graph review: facts read in a note wait for the agent's decision", async (t) => {
  const { client } = await connect(t, tempDir(t), { args: FULL });
  await call(client, "palace_kg", { action: "add", subject: "billing service", predicate: "owner", object: "Rafael", valid_from: "2025-01-01" });
  const rem = await call(client, "palace_remember", { content: "Dana owns the billing service. Maybe we should use Loki.", wing: "orion" });
  assert.deepEqual(rem.proposed.map((p) => `${p.subject} ${p.predicate} ${p.object}`), ["billing service owner Dana"]);
  const list = await call(client, "palace_kg_review", { action: "review" });
  assert.equal(list.total, 1);
  assert.equal(list.pending[0].supersedes[0].object, "Rafael");
  assert.equal(list.pending[0].source_drawer, rem.id);
  const acc = await call(client, "palace_kg_review", { action: "review", decision: "accept", ids: [list.pending[0].id] });
  assert.equal(acc.decided[0].status, "accepted");
  assert.equal(acc.total, 0);
  const q = await call(client, "palace_kg", { action: "query", entity: "billing service", as_of: "2999-01-01" });
  assert.deepEqual(q.facts.map((f) => f.object), ["Dana"]);
  assert.match(await toolError(client, "palace_kg_review", { action: "review", decision: "reject" }), /^invalid input: ids/);
});

test("wrong arguments are rejected with JSON-RPC -32602, bad values with a tool error", async (t) => {
  const { client } = await connect(t, tempDir(t), { args: ["--wing", "w", ...FULL] });
  const { client: core } = await connect(t, tempDir(t), { args: ["--wing", "w"] });
  const rejects = async (name, args, re, c = client) => {
    await assert.rejects(c.callTool({ name, arguments: args }), (e) => {
      assert.ok(e instanceof McpError, `McpError, got ${e}`);
      assert.equal(e.code, -32602);
      assert.match(e.message, re);
      return true;
    });
  };
  // What the default profile leaves out is refused saying where it is.
  await rejects("palace_taxonomy", { action: "list" }, /in the full profile only/, core);
  await rejects("palace_search", { query: "x", mode: "lexical" }, /parameter "mode" is in the full profile only/, core);
  await rejects("palace_kg", { action: "review" }, /"review" is palace_kg_review's/, core);
  await rejects("palace_search", { query: "x", wng: "a" }, /unknown parameter "wng"/);
  await rejects("palace_search", { query: "x", limit: "10" }, /"limit" must be an integer, got a string/);
  await rejects("palace_search", { query: "x", limit: 2.5 }, /"limit" must be an integer/);
  await rejects("palace_search", { query: "x", limit: 1000 }, /"limit" is 1000; want 1 to 100/);
  await rejects("palace_search", { query: "x", budget: -1 }, /"budget" is -1; want 0 to 100000/);
  await rejects("palace_search", { query: "x", detail: "brief" }, /"detail"/);
  await rejects("palace_remember", {}, /"content" is required/);
  await rejects("palace_kg", { action: "stats", subject: "x" }, /does not apply to action "stats"/);
  await rejects("palace_kg", { action: "add", subject: "a", predicate: "b" }, /"object" is required for action "add"/);
  await rejects("palace_taxonomy", { action: "set", room: "r", keywords: "a,b" }, /must be an array of strings/);
  await rejects("palace_nope", {}, /not found/);
  assert.match(await toolError(client, "palace_remember", { content: "x", wing: "a/b" }), /^invalid input: wing/);
  assert.match(await toolError(client, "palace_search", { query: "x", since: "last tuesday" }), /^invalid input: since/);
  assert.match(await toolError(client, "palace_get", { id: "d_nope" }), /^not found:/);
});

test("the wing comes from the client's roots; mine only inside them", async (t) => {
  const home = tempDir(t);
  // Enough files that the mine is still running when its first progress
  // notification goes out: mcp-go writes notifications from a goroutine of
  // its own, so those sent just before the result may follow it, and the
  // SDK drops progress that arrives after the result. With one file the
  // only notification came too late in 2 of 6 loaded CI runs.
  const files = {
    "palace.yaml": "wing: shop\n",
    "src/checkout.go": "package checkout\n\n// Charge sends an idempotency key with every payment call.\nfunc Charge() {}\n",
  };
  for (let i = 0; i < 300; i++) files[`notes/n${i}.md`] = `Note ${i} on the shop's payments.\n`;
  const proj = writeTree(join(tempDir(t), "Shop App"), files);
  const outside = writeTree(tempDir(t), { "secret.txt": "not for the palace\n" });
  symlinkSync(outside, join(proj, "escape"));
  const { client, state } = await connect(t, home, { roots: [proj], args: FULL });
  const st = await call(client, "palace_status");
  assert.equal(st.session.wing, "shop");
  assert.equal(st.session.wing_from, "roots");
  const rem = await call(client, "palace_remember", { content: "Payments are retried at most three times." });
  assert.equal(rem.wing, "shop");
  const progress = [];
  const mr = await client.callTool({ name: "palace_mine", arguments: { path: "." } }, undefined, { onprogress: (p) => progress.push(p) });
  assert.ok(!mr.isError, JSON.stringify(mr.content));
  const m = mr.structuredContent;
  assert.equal(m.wing, "shop");
  // The server reports up to total; some notifications may still come after
  // the result and be dropped (above): require progress, never past its total.
  assert.ok(progress.length >= 1 && progress.every((p) => p.progress <= p.total), `progress ${JSON.stringify(progress)}`);
  // palace.yaml configures the wing; it is not a drawer.
  assert.equal(m.files_mined, 301);
  assert.match(await toolError(client, "palace_mine", { path: outside }), /cannot be mined/);
  assert.match(await toolError(client, "palace_mine", { path: join(proj, "escape") }), /cannot be mined/);
  // A new root after roots/list_changed.
  const other = join(tempDir(t), "Billing");
  mkdirSync(other);
  state.roots = [other];
  await client.sendRootsListChanged();
  const rem2 = await call(client, "palace_remember", { content: "Invoices are numbered per year." });
  assert.equal(rem2.wing, "billing");
  assert.ok(state.rootsAsked >= 2);
});

test("without --wing or roots, writing tools say how to name the wing", async (t) => {
  const { client } = await connect(t, tempDir(t));
  assert.match(await toolError(client, "palace_remember", { content: "x" }), /wing is needed and none is known/);
  const wake = await call(client, "palace_wake_up", {});
  assert.equal(wake.wing, "", "reading tools fall back to the whole palace");
});

// The acceptance test: the same query gives the same hits over MCP
// (stdio and HTTP) as on the command line, here in hybrid mode with the
// repository's tiny embedding model.
test("a search over MCP returns the same hits as the CLI", async (t) => {
  const home = tempDir(t);
  const proj = writeTree(join(tempDir(t), "cachesvc"), {
    "README.md": "# cachesvc\n\nA small cache service with LRU eviction and TTLs.\n",
    "docs/eviction.md": "Eviction removes the least recently used entries when memory is tight.\n\nEviction events are logged at debug level.\n",
    "docs/retries.md": "Clients retry with exponential backoff and jitter.\n",
    "src/cache.go": "package cache\n\n// Evict drops the least recently used entry.\nfunc Evict() {}\n",
    "src/ttl.go": "package cache\n\n// Expire removes entries whose TTL passed.\nfunc Expire() {}\n",
  });
  const mined = await cli(home, ["mine", proj, "--no-progress"]);
  assert.ok(mined.drawers_added >= 5, "CLI mined the project");
  const { client } = await connect(t, home, { args: FULL });
  const http = await startHTTP(t, home);
  const hclient = await connectHTTP(t, http.url, http.token);
  for (const q of ["least recently used eviction", "retry backoff", "TTL expire entries", "cache"]) {
    const want = await cli(home, ["search", q]);
    assert.equal(want.mode, "hybrid", "the tiny model makes the search hybrid");
    for (const [how, c] of [["stdio", client], ["http", hclient]]) {
      const got = await call(c, "palace_search", { query: q });
      assert.equal(got.mode, want.mode, `${how} ${q}: mode`);
      assert.deepEqual(got.hits.map((h) => [h.id, h.score]), want.hits.map((h) => [h.id, h.score]), `${how} ${q}: hits`);
      assert.deepEqual(got.route, want.route, `${how} ${q}: route`);
    }
  }
  const lex = await cli(home, ["search", "eviction", "--mode", "lexical", "--limit", "2"]);
  const glex = await call(client, "palace_search", { query: "eviction", mode: "lexical", limit: 2 });
  assert.deepEqual(glex.hits.map((h) => h.id), lex.hits.map((h) => h.id));
});

test("prompts and resources: wake-up and palace://status", async (t) => {
  const { client } = await connect(t, tempDir(t), { args: ["--wing", "notes"] });
  await call(client, "palace_remember", { content: "The staging database is rebuilt every Monday at 06:00 UTC.", importance: 5 });
  const { prompts } = await client.listPrompts();
  assert.ok(prompts.some((p) => p.name === "wake-up"));
  const p = await client.getPrompt({ name: "wake-up", arguments: { budget: "300" } });
  assert.match(p.messages[0].content.text, /staging database is rebuilt/);
  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === "palace://status"));
  const st = JSON.parse((await client.readResource({ uri: "palace://status" })).contents[0].text);
  assert.equal(st.drawers, 1);
  assert.match(st.aaak_legend, /V1\|wing\|room\|date\|source/);
  const c = await client.complete({ ref: { type: "ref/prompt", name: "wake-up" }, argument: { name: "wing", value: "no" } });
  assert.deepEqual(c.completion.values, ["notes"]);
});

test("streamable HTTP refuses requests without the bearer token", async (t) => {
  const home = tempDir(t);
  const { url, token } = await startHTTP(t, home);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  assert.equal((await fetch(url, { method: "POST", headers, body })).status, 401);
  assert.equal((await fetch(url, { method: "POST", headers: { ...headers, authorization: "Bearer wrong" }, body })).status, 401);
  assert.equal((await fetch(url, { method: "POST", headers: { ...headers, authorization: `Bearer ${token}`, origin: "https://evil.example" }, body })).status, 403);
  const ok = await fetch(url, { method: "POST", headers: { ...headers, authorization: `Bearer ${token}` }, body });
  assert.equal(ok.status, 200);
});
