/**
 * A bounded task pool whose tasks may add more tasks (a prefix walk discovers prefixes).
 * `idle()` resolves when every task is done, or rejects with the first error (then nothing new starts).
 */
export class TaskPool {
  private running = 0;
  private queue: (() => Promise<void>)[] = [];
  private error: unknown = null;
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  added = 0;
  finished = 0;

  constructor(private readonly limit: number) {}

  add(task: () => Promise<void>): void {
    if (this.error) return;
    this.added++;
    this.queue.push(task);
    this.pump();
  }

  private pump(): void {
    while (!this.error && this.running < this.limit && this.queue.length) {
      const task = this.queue.shift()!;
      this.running++;
      task().then(
        () => this.done(null),
        (err) => this.done(err ?? new Error('task failed')),
      );
    }
    if (this.running === 0 && (this.queue.length === 0 || this.error)) this.settle();
  }

  private done(err: unknown): void {
    this.running--;
    this.finished++;
    if (err && !this.error) {
      this.error = err;
      this.queue = [];
    }
    this.pump();
  }

  private settle(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) {
      if (this.error) w.reject(this.error);
      else w.resolve();
    }
  }

  idle(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (this.running === 0 && this.queue.length === 0) this.settle();
    });
  }
}
