import { parentPort, workerData } from 'node:worker_threads';
import { parsedPieces, piecesOnDisk, type CsvMessage, type CsvWork } from './csvParse.js';

// A CSV file parsed here, off the thread that checks and stores its records (csv.ts,
// parsedInWorker): what the parse gives is sent on as it comes, no further ahead than the pieces
// that thread has asked for.
const { path, encoding } = workerData as CsvWork;
let asked = 0;
let wake: (() => void) | undefined;
parentPort?.on('message', (more: number) => {
  asked += more;
  wake?.();
});
const send = (message: CsvMessage) => parentPort?.postMessage(message);
try {
  for await (const parsed of parsedPieces(piecesOnDisk(path), encoding)) {
    while (asked === 0) await new Promise<void>((resolve) => (wake = resolve));
    asked--;
    send(parsed);
  }
  send({ end: true });
} catch (error) {
  const { message, code } = error as { message?: unknown; code?: unknown };
  send({ error: { message: String(message), ...(typeof code === 'string' && { code }) } });
}
