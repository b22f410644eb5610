/**
 * The one client the renderer uses to reach the engine, typed by `shared/contract.ts`.
 * - Inside Electron: the preload bridge `window.storeDoctor`.
 * - In a browser: HTTP `POST /api/<request>` to the loopback host, events over Server-Sent Events.
 * Every call resolves with the result or throws a `ClientError` carrying the contract error.
 */
import type { ContractError, EventName, EventPayloads, Reply, RequestInput, RequestName, RequestResult } from '../../shared/contract';
import type { Progress } from '../../shared/model';

import type { PickKind, StoreDoctorBridge } from '../../shared/bridge';

export type { PickKind, StoreDoctorBridge } from '../../shared/bridge';

declare global {
  interface Window {
    storeDoctor?: StoreDoctorBridge;
  }
}

export class ClientError extends Error {
  readonly code: ContractError['code'] | 'transport';
  readonly file?: string;
  constructor(error: { code: ContractError['code'] | 'transport'; message: string; file?: string }) {
    super(error.message);
    this.name = 'ClientError';
    this.code = error.code;
    this.file = error.file;
  }
}

export interface RequestOptions {
  taskId?: string;
  onProgress?: (p: Progress) => void;
}

export interface Client {
  readonly door: 'electron' | 'http';
  request<N extends RequestName>(name: N, input: RequestInput<N>, options?: RequestOptions): Promise<RequestResult<N>>;
  cancel(taskId: string): Promise<void>;
  on<E extends EventName>(name: E, cb: (payload: EventPayloads[E]) => void): () => void;
  /** Native file dialog; null in a browser (no dialog there) or when the user cancels. */
  pickPath(kind: PickKind): Promise<string | null>;
  readonly canPickPath: boolean;
  dispose(): void;
}

let taskCounter = 0;
export function newTaskId(prefix = 'task'): string {
  taskCounter += 1;
  const rnd = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID().slice(0, 8) : Math.random().toString(36).slice(2, 10);
  return `${prefix}-${Date.now().toString(36)}-${taskCounter}-${rnd}`;
}

function unwrap<T>(reply: Reply<T> | unknown): T {
  if (!reply || typeof reply !== 'object' || !('ok' in reply)) {
    throw new ClientError({ code: 'transport', message: 'The engine sent a reply that is not a contract reply.' });
  }
  const r = reply as Reply<T>;
  if (r.ok) return r.value;
  throw new ClientError(r.error ?? { code: 'failed', message: 'The request failed without a reason.' });
}

type Listener = (payload: unknown) => void;

/** Shared plumbing: event listeners and progress routing by task id. */
abstract class BaseClient {
  protected listeners = new Map<EventName, Set<Listener>>();
  protected progressByTask = new Map<string, (p: Progress) => void>();

  protected emit(name: EventName, payload: unknown): void {
    if (name === 'progress') {
      const p = payload as EventPayloads['progress'];
      this.progressByTask.get(p?.taskId)?.(p.progress);
    }
    for (const cb of this.listeners.get(name) ?? []) cb(payload);
  }

  on<E extends EventName>(name: E, cb: (payload: EventPayloads[E]) => void): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(cb as Listener);
    return () => set.delete(cb as Listener);
  }

  protected async track<T>(options: RequestOptions | undefined, run: (taskId: string) => Promise<T>): Promise<T> {
    const taskId = options?.taskId ?? newTaskId();
    if (options?.onProgress) this.progressByTask.set(taskId, options.onProgress);
    try {
      return await run(taskId);
    } finally {
      this.progressByTask.delete(taskId);
    }
  }
}

class ElectronClient extends BaseClient implements Client {
  readonly door = 'electron' as const;
  readonly canPickPath = true;
  private unsubscribers: (() => void)[];
  constructor(private bridge: StoreDoctorBridge) {
    super();
    this.unsubscribers = (['progress', 'store.changed'] as const).map((name) => bridge.onEvent(name, (payload) => this.emit(name, payload)));
  }
  request<N extends RequestName>(name: N, input: RequestInput<N>, options?: RequestOptions): Promise<RequestResult<N>> {
    return this.track(options, async (taskId) => unwrap<RequestResult<N>>(await this.bridge.request(name, input, taskId)));
  }
  async cancel(taskId: string): Promise<void> {
    await this.bridge.cancel(taskId);
  }
  pickPath(kind: PickKind): Promise<string | null> {
    return this.bridge.pickPath(kind);
  }
  dispose(): void {
    for (const u of this.unsubscribers) u();
  }
}

export interface HttpClientOptions {
  /** Base URL of the host (defaults to the page origin). */
  baseUrl?: string;
  token?: string | null;
  fetch?: typeof fetch;
  /** Factory for the SSE connection; null disables events (tests). */
  eventSource?: ((url: string) => EventSource) | null;
}

class HttpClient extends BaseClient implements Client {
  readonly door = 'http' as const;
  readonly canPickPath = false;
  private source: EventSource | null = null;
  private fetchFn: typeof fetch;
  constructor(private opts: HttpClientOptions) {
    super();
    this.fetchFn = opts.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
    const factory = opts.eventSource === undefined ? (url: string) => new EventSource(url, { withCredentials: true }) : opts.eventSource;
    if (factory) {
      const source = factory(this.url('events'));
      for (const name of ['progress', 'store.changed'] as const) {
        source.addEventListener(name, (ev) => {
          try {
            this.emit(name, JSON.parse((ev as MessageEvent<string>).data));
          } catch {
            /* a malformed event is dropped; requests still report their own errors */
          }
        });
      }
      this.source = source;
    }
  }
  private url(path: string): string {
    return `${this.opts.baseUrl ?? ''}/api/${path}`;
  }
  request<N extends RequestName>(name: N, input: RequestInput<N>, options?: RequestOptions): Promise<RequestResult<N>> {
    return this.track(options, async (taskId) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
      let res: Response;
      try {
        res = await this.fetchFn(this.url(name), { method: 'POST', headers, body: JSON.stringify({ taskId, input }), credentials: 'same-origin' });
      } catch (e) {
        throw new ClientError({ code: 'transport', message: `Cannot reach the Store Doctor host: ${(e as Error).message}` });
      }
      let body: unknown;
      try {
        body = await res.json();
      } catch {
        const why = res.status === 401 ? 'the session token is missing or wrong; open the URL printed by `store-doctor serve`' : `HTTP ${res.status}`;
        throw new ClientError({ code: res.status === 401 ? 'forbidden' : 'transport', message: `The host refused the request (${why}).` });
      }
      return unwrap<RequestResult<N>>(body);
    });
  }
  async cancel(taskId: string): Promise<void> {
    await this.request('task.cancel', { taskId });
  }
  async pickPath(): Promise<string | null> {
    return null;
  }
  dispose(): void {
    this.source?.close();
    this.source = null;
  }
}

export function createHttpClient(opts: HttpClientOptions = {}): Client {
  return new HttpClient(opts);
}

export function createElectronClient(bridge: StoreDoctorBridge): Client {
  return new ElectronClient(bridge);
}

/** Read `?token=` from the address, keep it in memory, and strip it from the address bar. */
export function takeTokenFromLocation(loc: Location = window.location, hist: History = window.history): string | null {
  const url = new URL(loc.href);
  const token = url.searchParams.get('token');
  if (token) {
    url.searchParams.delete('token');
    hist.replaceState(hist.state, '', url.pathname + url.search + url.hash);
  }
  return token;
}

let current: Client | null = null;

/** The client for this page: the Electron bridge when present, else HTTP to the page's origin. */
export function getClient(): Client {
  if (!current) {
    current = window.storeDoctor ? createElectronClient(window.storeDoctor) : createHttpClient({ token: takeTokenFromLocation() });
  }
  return current;
}

/** Tests replace the client with a fake. */
export function setClient(client: Client | null): void {
  current?.dispose();
  current = client;
}
