import { Worker } from 'node:worker_threads';

/** A worker thread running `file` (a module of this folder), and its first message: its answer, or its failure. */
export function startWorker<T>(file: string): { worker: Worker; answer: Promise<T> } {
  const worker = new Worker(new URL(file, import.meta.url));
  const answer = new Promise<T>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the worker ${file} ended (${code}) before answering`)));
  });
  // Awaited once everything is sent to it; a failure meanwhile waits there.
  answer.catch(() => {});
  return { worker, answer };
}
