import { writeFileSync } from 'node:fs';
import { readProc } from './process.js';

/** A field of /proc/<pid>/status in bytes (VmRSS: resident now; VmHWM: the peak). */
export function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const kb = readProc(pid, 'status')?.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1];
  return kb === undefined ? 0 : Number(kb) * 1024;
}

/**
 * Starts watching the peak resident memory of `pid` from now on: the kernel's own peak (VmHWM),
 * reset here through clear_refs where the kernel allows it, and VmRSS sampled every 200 ms either way.
 * `stop()` answers the peak in bytes.
 */
export function watchPeakRss(pid: number): { stop(): number } {
  let peakResets = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    peakResets = false;
  }
  let peak = statusBytes(pid, 'VmRSS');
  const timer = setInterval(() => (peak = Math.max(peak, statusBytes(pid, 'VmRSS'))), 200);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, statusBytes(pid, 'VmRSS'));
      return peakResets ? Math.max(peak, statusBytes(pid, 'VmHWM')) : peak;
    },
  };
}
