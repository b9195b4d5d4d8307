import { parentPort } from 'node:worker_threads';
import { zipSync, type Zippable } from 'fflate';

// A zip archive made here, off the service's event loop (ods.ts): its bytes are the answer.
parentPort?.once('message', (files: Zippable) => parentPort?.postMessage(zipSync(files)));
