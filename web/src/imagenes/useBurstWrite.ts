import { useCallback, useEffect, useRef } from 'react';

/**
 * One write for a burst of changes: `later(value)` keeps the latest value and writes it once
 * `pause` ms have passed without another; `now()` writes what waits at once (when the control
 * loses the focus), as unmounting and leaving the page do; `hold()` stops the clock while a
 * gesture is under way, so that a pointer held still in the middle of a drag writes nothing yet.
 */
export function useBurstWrite<T>(write: (value: T) => void, pause: number) {
  const waiting = useRef<{ value: T }>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The latest `write`, so that a timer set before a render writes through the current one.
  const writer = useRef(write);
  useEffect(() => {
    writer.current = write;
  });
  const now = useCallback(() => {
    clearTimeout(timer.current);
    const value = waiting.current;
    waiting.current = undefined;
    if (value) writer.current(value.value);
  }, []);
  const later = useCallback(
    (value: T) => {
      waiting.current = { value };
      clearTimeout(timer.current);
      timer.current = setTimeout(now, pause);
    },
    [now, pause],
  );
  const hold = useCallback(() => clearTimeout(timer.current), []);
  // What waits is written as the component goes, and as the page does (closed, reloaded, left).
  useEffect(() => {
    window.addEventListener('pagehide', now);
    return () => {
      window.removeEventListener('pagehide', now);
      now();
    };
  }, [now]);
  return { later, now, hold };
}
