import { cropStart } from '../../../src/catalogue/crop';

/** The crops the admin previews, as width:height, with their names. */
export const CROPS = [
  { ratio: 16 / 9, name: '16:9' },
  { ratio: 1, name: '1:1' },
  { ratio: 2 / 3, name: '2:3' },
] as const;

/** A focal point, in percent of the width and of the height. */
export type Focus = { foco_x: number; foco_y: number };

interface Picture extends Focus {
  ancho: number;
  alto: number;
}

/** A nominal box: the crop's place is a fraction of the slack, whatever size the preview has. */
const BOX = 960;

/** Where the picture sits along one side, as CSS object-position's percent of the slack. */
function along(focus: number, scaled: number, box: number): number {
  return scaled <= box ? 50 : (cropStart(focus, scaled, box) / (scaled - box)) * 100;
}

/**
 * The CSS object-position that shows, with object-fit: cover in a box of that ratio, the crop that
 * the API's `ajuste=cubrir` cuts (the same cropStart), so that a preview matches the rendition.
 */
export function objectPosition(picture: Picture, ratio: number): string {
  const width = BOX;
  const height = BOX / ratio;
  const scale = Math.max(width / picture.ancho, height / picture.alto);
  const x = along(picture.foco_x, picture.ancho * scale, width);
  const y = along(picture.foco_y, picture.alto * scale, height);
  return `${x.toFixed(2)}% ${y.toFixed(2)}%`;
}

/** The focal point moved by an arrow key, `step` percent, kept within 0 to 100; undefined for any other key. */
export function movedFocus(key: string, focus: Focus, step: number): Focus | undefined {
  const within = (n: number) => Math.min(100, Math.max(0, n));
  const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
  const move = moves[key];
  return move && { foco_x: within(focus.foco_x + move[0]), foco_y: within(focus.foco_y + move[1]) };
}
