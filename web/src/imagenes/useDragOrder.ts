import { useEffect, useRef, useState, type HTMLAttributes } from 'react';

/** The attribute that names a card's image (its id), so that the card under the pointer can be found. */
export const CARD = 'data-imagen';

/** Within this many pixels of the screen's top or bottom a dragged picture scrolls the page, faster nearer the edge. */
const EDGE = 72;
/** Pixels a frame at the very edge. */
const SPEED = 14;

interface Point {
  x: number;
  y: number;
}

/** The id of the card under a point of the screen, if any. */
const cardAt = ({ x, y }: Point) => document.elementFromPoint(x, y)?.closest(`[${CARD}]`)?.getAttribute(CARD) ?? undefined;

/** How fast the page scrolls for a pointer there: negative up, positive down, 0 away from the edges. */
function scrollSpeed(y: number): number {
  if (y < EDGE) return -SPEED * ((EDGE - y) / EDGE);
  const bottom = window.innerHeight - EDGE;
  return y > bottom ? SPEED * ((y - bottom) / EDGE) : 0;
}

/**
 * Reordering by dragging a card's handle onto another card, with pointer events: a mouse, a pen
 * and a finger alike (the handle takes no touch scrolling, so a finger drags rather than scrolls;
 * near the screen's edges the page scrolls under it). `drop(moved, onto)` is called with the two
 * images' ids when the handle is let go over another card.
 */
export function useDragOrder(drop: (moved: string, onto: string) => void) {
  const [moving, setMoving] = useState<string>();
  const [over, setOver] = useState<string>();
  // The pointer that drags, and where it is: a second finger on another handle meanwhile is ignored.
  const pointer = useRef<Point & { id: number }>(undefined);

  useEffect(() => {
    if (moving === undefined) return;
    let frame = requestAnimationFrame(function step() {
      const at = pointer.current;
      const speed = at ? scrollSpeed(at.y) : 0;
      if (at && speed !== 0) {
        window.scrollBy(0, speed);
        setOver(cardAt(at));
      }
      frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
  }, [moving]);

  const end = () => {
    pointer.current = undefined;
    setMoving(undefined);
    setOver(undefined);
  };

  /** What a card's handle needs: its image's id. */
  const handle = (id: string): HTMLAttributes<HTMLElement> => ({
    onPointerDown(event) {
      if (event.button !== 0 || pointer.current) return;
      // No text selected, no native drag of what is under the handle.
      event.preventDefault();
      event.currentTarget.setPointerCapture(event.pointerId);
      pointer.current = { x: event.clientX, y: event.clientY, id: event.pointerId };
      setMoving(id);
      setOver(id);
    },
    onPointerMove(event) {
      if (pointer.current?.id !== event.pointerId) return;
      pointer.current = { x: event.clientX, y: event.clientY, id: event.pointerId };
      setOver(cardAt(pointer.current));
    },
    onPointerUp(event) {
      if (pointer.current?.id !== event.pointerId) return;
      const onto = cardAt({ x: event.clientX, y: event.clientY });
      end();
      if (onto !== undefined && onto !== id) drop(id, onto);
    },
    onPointerCancel(event) {
      if (pointer.current?.id === event.pointerId) end();
    },
  });

  return { moving, over, handle };
}
