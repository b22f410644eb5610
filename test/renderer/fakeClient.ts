/** An in-memory Client for component tests: answers from handler functions, records calls, emits events. */
import type { EventName, EventPayloads, RequestInput, RequestName, RequestResult } from '../../shared/contract';
import { ClientError, type Client, type RequestOptions } from '../../renderer/src/client';

type Handlers = { [N in RequestName]?: (input: RequestInput<N>, options?: RequestOptions) => RequestResult<N> | Promise<RequestResult<N>> };

export interface FakeClient extends Client {
  calls: { name: RequestName; input: unknown; taskId?: string }[];
  cancelled: string[];
  emit<E extends EventName>(name: E, payload: EventPayloads[E]): void;
}

/** What every app start asks besides app.info and store.recent: no store open yet, no saved connection. */
const DEFAULTS: Handlers = {
  'store.list': () => ({ stores: [] }),
  'connection.list': () => ({ connections: [] }),
};

export function fakeClient(given: Handlers): FakeClient {
  const handlers: Handlers = { ...DEFAULTS, ...given };
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const calls: FakeClient['calls'] = [];
  const cancelled: string[] = [];
  return {
    door: 'http',
    canPickPath: false,
    calls,
    cancelled,
    async request(name, input, options) {
      calls.push({ name, input, taskId: options?.taskId });
      const h = handlers[name] as ((i: unknown, o?: RequestOptions) => unknown) | undefined;
      if (!h) throw new ClientError({ code: 'failed', message: `no fake for ${name}` });
      return (await h(input, options)) as never;
    },
    async cancel(taskId) {
      cancelled.push(taskId);
    },
    on(name, cb) {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(cb as (p: unknown) => void);
      return () => set.delete(cb as (p: unknown) => void);
    },
    emit(name, payload) {
      for (const cb of listeners.get(name) ?? []) cb(payload);
    },
    async pickPath() {
      return null;
    },
    dispose() {},
  };
}
