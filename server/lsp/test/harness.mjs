// A minimal LSP client for integration tests: it spawns the server binary,
// speaks LSP over its stdio with vscode-languageserver-protocol (the same
// library VS Code's client is built on; vscode-languageclient itself cannot
// run outside VS Code), answers the server's own requests the way an editor
// does, and records every notification.
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
  RegistrationRequest,
} from 'vscode-languageserver-protocol/node';

// serverCommand is the command line that starts the server:
// PALACE_LSP_CMD as a JSON array, else ["palace", "serve", "--lsp"] with
// PALACE_BIN standing for "palace".
export function serverCommand() {
  if (process.env.PALACE_LSP_CMD) {
    const cmd = JSON.parse(process.env.PALACE_LSP_CMD);
    if (!Array.isArray(cmd) || cmd.length === 0) throw new Error('PALACE_LSP_CMD must be a non-empty JSON array');
    return cmd;
  }
  return [process.env.PALACE_BIN || 'palace', 'serve', '--lsp'];
}

export const fileUri = (p) => pathToFileURL(p).href;

// startServer spawns the server on the palace at home. Options: env (extra
// environment). It returns a client that has not initialized yet.
export function startServer(home, { env = {} } = {}) {
  const [cmd, ...args] = serverCommand();
  const proc = spawn(cmd, [...args, '--home', home], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, PALACE_MODEL_DIR: '', ...env },
  });
  const client = new Client(proc);
  return client;
}

class Client {
  constructor(proc) {
    this.proc = proc;
    this.stderr = '';
    this.notes = []; // {method, params, at}
    this.progress = []; // {token, value, at}
    this.serverRequests = [];
    this.waiters = [];
    proc.stderr.on('data', (d) => { this.stderr += d; });
    this.exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
    const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    this.conn = conn;
    // The server creates a progress token for the first mine; an editor
    // then listens for $/progress under that token.
    conn.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      this.serverRequests.push('window/workDoneProgress/create');
      conn.onProgress(WorkDoneProgress.type, token, (value) => this.record('$/progress', { token, value }));
      return null;
    });
    conn.onRequest(RegistrationRequest.type, (params) => {
      this.serverRequests.push('client/registerCapability');
      this.registrations = params.registrations;
      return null;
    });
    conn.onUnhandledProgress((params) => this.record('$/progress', params));
    conn.onNotification((method, params) => this.record(method, params));
    conn.listen();
  }

  record(method, params) {
    const n = { method, params, at: performance.now() };
    this.notes.push(n);
    if (method === '$/progress') this.progress.push(n);
    for (const w of [...this.waiters]) {
      if (w.method === method && w.match(params)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(n);
      }
    }
  }

  // waitFor resolves with the first notification of method (seen already,
  // from index `from` on, or still to come) that match accepts.
  waitFor(method, match = () => true, { from = 0, timeout = 30000 } = {}) {
    const seen = this.notes.slice(from).find((n) => n.method === method && match(n.params));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const w = { method, match, resolve };
      this.waiters.push(w);
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        reject(new Error(`no ${method} within ${timeout} ms; server log:\n${this.stderr}`));
      }, timeout);
      timer.unref(); // a pending timer must not keep node --test waiting
      const done = w.resolve;
      w.resolve = (n) => { clearTimeout(timer); done(n); };
    });
  }

  async initialize(folders, initializationOptions = {}) {
    const result = await this.conn.sendRequest('initialize', {
      processId: process.pid,
      clientInfo: { name: 'node-test' },
      rootUri: folders.length ? fileUri(folders[0]) : null,
      workspaceFolders: folders.map((f) => ({ uri: fileUri(f), name: f.split('/').pop() })),
      initializationOptions,
      capabilities: {
        window: { workDoneProgress: true },
        workspace: { workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
        textDocument: { synchronization: { didSave: true } },
      },
    });
    await this.conn.sendNotification('initialized', {});
    return result;
  }

  request(method, params) {
    return this.conn.sendRequest(method, params);
  }

  notify(method, params) {
    return this.conn.sendNotification(method, params);
  }

  didOpen(path, text, languageId = 'plaintext') {
    return this.notify('textDocument/didOpen', { textDocument: { uri: fileUri(path), languageId, version: 1, text } });
  }

  didSave(path) {
    return this.notify('textDocument/didSave', { textDocument: { uri: fileUri(path) } });
  }

  async shutdown() {
    await this.conn.sendRequest('shutdown');
    await this.conn.sendNotification('exit');
    const exit = await this.exited;
    this.conn.dispose();
    return exit;
  }

  kill() {
    if (this.proc.exitCode === null) this.proc.kill('SIGKILL');
    this.conn.dispose();
  }
}
