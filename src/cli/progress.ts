import cliProgress from 'cli-progress';

/** Told how far long work has got. */
export type Advance = (done: number, total?: number) => void;

/**
 * A progress bar on stderr while `work` runs, when stderr is a terminal; nothing at all otherwise
 * (a script's log stays clean).
 */
export async function withProgress<T>(label: string, total: number, unit: string, work: (advance: Advance) => Promise<T>): Promise<T> {
  if (!process.stderr.isTTY) return work(() => {});
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${label} [{bar}] {percentage}% {value}/{total} ${unit}`, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  try {
    return await work((done, newTotal) => {
      if (newTotal !== undefined) bar.setTotal(newTotal);
      bar.update(done);
    });
  } finally {
    bar.stop();
  }
}
