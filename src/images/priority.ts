import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * How much less libvips's threads count than the event loop when both want the CPU (nice 10: about
 * a tenth of its share). Encoding takes whatever the requests leave, so lookups stay fast while
 * renditions are made; on a machine at rest an encoding runs at full speed all the same.
 */
const ENCODER_NICENESS = 10;

/**
 * Lowers the priority of libvips's worker threads (Linux names them `libvips worker` and gives each
 * thread its own nice value); libvips keeps them for the next pictures, and starts more when
 * several are encoded at once, so this runs after each encoding (about 15 small reads). Elsewhere, or where the
 * threads cannot be listed, it does nothing: encodings then share the CPU equally with requests.
 */
export function lowerEncoderPriority(): void {
  let threads: string[];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    return;
  }
  for (const thread of threads) {
    try {
      if (readFileSync(`/proc/self/task/${thread}/comm`, 'utf8').startsWith('libvips')) setPriority(Number(thread), ENCODER_NICENESS);
    } catch {
      // A thread that ended meanwhile.
    }
  }
}
