/**
 * At most `count` tasks at once; the others wait their turn in order of arrival. A slot freed goes
 * straight to the longest waiting, so no newcomer slips past the limit.
 */
export class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly count: number) {}

  /** Whether a task run now would wait. */
  get full(): boolean {
    return this.running >= this.count;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.count) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
