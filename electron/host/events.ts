/**
 * Server-Sent Events: every engine event (progress, store.changed) goes to every connected page
 * as `event: <name>` + one JSON `data:` line. A comment line every 15 s keeps proxies and SSH
 * tunnels from closing an idle stream.
 */
import type { ServerResponse } from 'node:http';
import type { Engine, EventName, EventPayloads } from '../../shared/contract';

const EVENT_NAMES: EventName[] = ['progress', 'store.changed'];

export class EventHub {
  private readonly clients = new Set<ServerResponse>();
  private readonly unsubscribe: (() => void)[];
  private readonly heartbeat: NodeJS.Timeout;

  constructor(engine: Engine) {
    this.unsubscribe = EVENT_NAMES.map((name) => engine.onEvent(name, (payload) => this.broadcast(name, payload)));
    this.heartbeat = setInterval(() => {
      for (const res of this.clients) res.write(': keep-alive\n\n');
    }, 15_000);
    this.heartbeat.unref();
  }

  attach(res: ServerResponse, onClose: (cb: () => void) => void): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n: connected\n\n');
    this.clients.add(res);
    onClose(() => this.clients.delete(res));
  }

  broadcast<E extends EventName>(name: E, payload: EventPayloads[E]): void {
    const frame = `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const res of this.clients) res.write(frame);
  }

  get size(): number {
    return this.clients.size;
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const off of this.unsubscribe) off();
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}
