import * as vscode from 'vscode';
import * as fs from 'fs';
import * as path from 'path';
import {
  LanguageClient, LanguageClientOptions, ServerOptions, CloseAction, ErrorAction,
  Disposable, State, StaticFeature, FeatureState, ClientCapabilities,
  WorkDoneProgress, WorkDoneProgressCreateRequest,
} from 'vscode-languageclient/node';

export const DOCS_URL = 'https://github.com/palace-dev/palace/blob/main/server/lsp/README.md';

/** Finds the palace binary: the setting, else PATH; undefined when neither has it. */
export function resolveServer(setting: string | undefined, envPath = process.env.PATH || ''): string | undefined {
  const expand = (p: string) => p.replace(/^~(?=$|\/)/, process.env.HOME || '~');
  if (setting && setting.trim()) {
    const p = expand(setting.trim());
    return fs.existsSync(p) ? p : undefined;
  }
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, process.platform === 'win32' ? 'palace.exe' : 'palace');
    try { fs.accessSync(p, fs.constants.X_OK); return p; } catch { /* next */ }
  }
  return undefined;
}

export interface ProgressValue { kind: 'begin' | 'report' | 'end'; title?: string; message?: string; percentage?: number }

/**
 * Takes the server's $/progress (the mines) for the status bar item. It
 * replaces the languageclient's own progress feature, which would show each
 * mine as a second, window-progress status item beside ours.
 */
class MiningProgress implements StaticFeature {
  private parts = new Set<Disposable>();
  constructor(private client: LanguageClient, private listener: (v: ProgressValue) => void) {}
  getState(): FeatureState { return { kind: 'static' }; }
  fillClientCapabilities(c: ClientCapabilities): void { c.window = { ...(c.window ?? {}), workDoneProgress: true }; }
  initialize(): void {
    this.client.onRequest(WorkDoneProgressCreateRequest.type, (params) => {
      const part: Disposable = this.client.onProgress(WorkDoneProgress.type, params.token, (v) => {
        if (v.kind === 'end') { part.dispose(); this.parts.delete(part); }
        try { this.listener(v as ProgressValue); } catch { /* a listener's failure is not the server's */ }
      });
      this.parts.add(part);
    });
  }
  clear(): void { for (const p of this.parts) p.dispose(); this.parts.clear(); }
}

/** The languageclient's built-in progress feature answers window/workDoneProgress/create. */
function isBuiltinProgress(f: unknown): boolean {
  try { return (f as { getState?(): { id?: string } }).getState?.().id === WorkDoneProgressCreateRequest.method; } catch { return false; }
}

/** A LanguageClient whose progress goes to our status bar item only. */
class PalaceLanguageClient extends LanguageClient {
  registerFeature(feature: Parameters<LanguageClient['registerFeature']>[0]): void {
    if (isBuiltinProgress(feature)) return;
    super.registerFeature(feature);
  }
}

/** palace/mine's answer: the folders queued. */
export interface MineResult { queued: { uri: string; path: string; wing: string }[] }

export interface PalaceClientEvents {
  onProgress?(v: ProgressValue): void;
  onDidIndex?(n: { uri: string; wing?: string; drawers?: number; ms?: number; skipped?: string }): void;
  /** palace/changed: the palace database changed (this server's writes or another process's). */
  onChanged?(n: { drawers: number; at: string }): void;
  onState?(s: 'starting' | 'running' | 'stopped' | 'missing'): void;
}

/** Owns `palace serve --lsp`: start, restart with back-off, requests. */
export class PalaceClient {
  client?: PalaceLanguageClient;
  private backoff = 1000;
  private startedAt = 0;
  private subs: vscode.Disposable[] = [];

  constructor(readonly output: vscode.LogOutputChannel, private events: PalaceClientEvents = {}) {}

  get running(): boolean { return !!this.client && this.client.state === State.Running; }

  initializationOptions(): Record<string, unknown> {
    const c = vscode.workspace.getConfiguration('palace');
    const o: Record<string, unknown> = { mineOnSave: c.get<boolean>('mineOnSave', true), hover: c.get<boolean>('hover', true) };
    const home = c.get<string>('home', ''); if (home) o.home = home;
    const wing = c.get<string>('wing', ''); if (wing) o.wing = wing;
    return o;
  }

  async start(): Promise<boolean> {
    const c = vscode.workspace.getConfiguration('palace');
    const bin = resolveServer(c.get<string>('serverPath', ''));
    if (!bin) {
      this.events.onState?.('missing');
      const msg = c.get<string>('serverPath', '')
        ? `Palace: the server binary "${c.get('serverPath')}" (palace.serverPath) was not found.`
        : 'Palace: the `palace` binary is not on PATH. Install it or set palace.serverPath.';
      this.output.error(msg);
      void vscode.window.showErrorMessage(msg, 'Open Docs', 'Open Settings').then((pick) => {
        if (pick === 'Open Docs') void vscode.env.openExternal(vscode.Uri.parse(DOCS_URL));
        if (pick === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'palace.serverPath');
      });
      return false;
    }
    this.output.info(`Palace: starting ${bin} serve --lsp`);
    const serverOptions: ServerOptions = {
      run: { command: bin, args: ['serve', '--lsp'] },
      debug: { command: bin, args: ['serve', '--lsp'] },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: 'file' }],
      outputChannel: this.output,
      initializationOptions: this.initializationOptions(),
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue }),
        closed: async () => {
          this.events.onState?.('stopped');
          if (Date.now() - this.startedAt > 60_000) this.backoff = 1000;
          const wait = this.backoff;
          this.backoff = Math.min(this.backoff * 2, 30_000);
          this.output.warn(`Palace: server exited; restarting in ${wait} ms`);
          await new Promise((r) => setTimeout(r, wait));
          this.startedAt = Date.now();
          return { action: CloseAction.Restart, handled: true };
        },
      },
    };
    const client = new PalaceLanguageClient('palace', 'Palace', serverOptions, clientOptions);
    client.registerFeature(new MiningProgress(client, (v) => this.events.onProgress?.(v)));
    this.client = client;
    this.subs.push(client.onNotification('palace/didIndex', (n) => this.events.onDidIndex?.(n)));
    this.subs.push(client.onNotification('palace/changed', (n) => this.events.onChanged?.(n)));
    this.subs.push(client.onDidChangeState((e) => {
      if (e.newState === State.Running) this.events.onState?.('running');
      else if (e.newState === State.Starting) this.events.onState?.('starting');
    }));
    this.events.onState?.('starting');
    this.startedAt = Date.now();
    try {
      await client.start();
    } catch (err) {
      this.output.error(`Palace: failed to start: ${String(err)}`);
      this.events.onState?.('stopped');
      return false;
    }
    return true;
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    for (const s of this.subs.splice(0)) s.dispose();
    if (c) { try { await c.stop(5000); } catch { /* already gone */ } }
    this.events.onState?.('stopped');
  }

  async restart(): Promise<boolean> {
    await this.stop();
    this.backoff = 1000;
    return this.start();
  }

  async request<T = any>(method: string, params: unknown, token?: vscode.CancellationToken): Promise<T> {
    if (!this.client) throw new Error('Palace server is not running');
    return token ? this.client.sendRequest<T>(method, params, token as any) : this.client.sendRequest<T>(method, params);
  }

  relevant(params: object, token?: vscode.CancellationToken) { return this.request('palace/relevant', params, token); }
  search(params: { query: string; wing?: string; room?: string; limit?: number }) { return this.request('palace/search', params); }
  drawer(id: string) { return this.request('palace/drawer', { id }); }
  remember(params: object) { return this.request('palace/remember', params); }
  forget(id: string) { return this.request('palace/forget', { id }); }
  status() { return this.request('palace/status', {}); }
  wakeUp(params: object = {}) { return this.request<{ text: string }>('palace/wakeUp', params); }
  /** Queues a mine of every workspace folder (or of `uri`'s) on the server's own miner; answers at once. */
  mine(params: { uri?: string } = {}) { return this.request<MineResult>('palace/mine', params); }
  /** The wings and rooms as data and as a self-contained page whose inline script and style carry nonce. */
  map(params: { wing?: string; nonce: string }) { return this.request<{ map: unknown; html: string }>('palace/map', params); }
  /** The facts around entity and a page drawing them, or an error naming an unknown entity. */
  graph(params: { entity: string; asOf?: string; nonce: string }) { return this.request<{ entity: string; facts: unknown[]; html: string }>('palace/graph', params); }
}
