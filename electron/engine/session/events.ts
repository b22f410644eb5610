/** Typed engine events (progress, store.changed) with per-listener error isolation. */
import type { EventName, EventPayloads } from '../../../shared/contract';

export class EngineEvents {
  private readonly listeners = new Map<EventName, Set<(payload: never) => void>>();

  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => {
      set.delete(listener as (payload: never) => void);
    };
  }

  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    for (const l of this.listeners.get(event) ?? []) {
      try {
        (l as (p: EventPayloads[E]) => void)(payload);
      } catch {
        // A failing listener (a closed window, a dropped SSE client) must not break the engine.
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
