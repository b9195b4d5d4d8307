import { createHash } from 'node:crypto';
import sharp from './vips.js';
import { cropStart } from '../catalogue/crop.js';

/** The widths and heights a rendition may have (contract, "Images"). */
export const SIZES = [64, 128, 256, 320, 480, 640, 960, 1280, 1920, 2560] as const;
export const FORMATOS = ['avif', 'webp', 'jpeg', 'png'] as const;
export type Formato = (typeof FORMATOS)[number];
export const AJUSTES = ['cubrir', 'contener'] as const;

export interface Wanted {
  ancho?: number;
  alto?: number;
  ajuste: (typeof AJUSTES)[number];
  formato: Formato;
}

export interface Source {
  datos: Buffer;
  digest: string;
  /** Pixels with the orientation applied. */
  ancho: number;
  alto: number;
  foco_x: number;
  foco_y: number;
}

export const MIME: Record<Formato, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg', png: 'image/png' };

/**
 * How `render` makes a rendition: a new number whenever a change to it changes a rendition's bytes,
 * so that no client holds bytes of before under an ETag of now. 2: `cubrir` in one pipeline (1
 * encoded the resized picture in the original's format, then cut it from that).
 */
const RENDER_VERSION = 2;

/** The strong ETag of a rendition: it changes whenever its bytes can (the file, the focal point, the box, the format, the way it is made). */
export function renditionTag(source: Omit<Source, 'datos'>, wanted: Wanted): string {
  const key = [source.digest, source.foco_x, source.foco_y, wanted.ancho, wanted.alto, wanted.ajuste, wanted.formato, RENDER_VERSION].join(' ');
  return `"${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`;
}

/** The box a rendition fills, never larger than the original allows; `cubrir` keeps the box's ratio. */
function boxOf(source: Source, wanted: Wanted): { width: number; height: number } {
  const { ancho: w, alto: h } = source;
  const bw = wanted.ancho ?? (wanted.alto ? Math.round((wanted.alto * w) / h) : w);
  const bh = wanted.alto ?? (wanted.ancho ? Math.round((wanted.ancho * h) / w) : h);
  if (wanted.ajuste === 'contener') {
    const scale = Math.min(1, bw / w, bh / h);
    return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
  }
  const shrink = Math.min(1, w / bw, h / bh);
  return { width: Math.max(1, Math.round(bw * shrink)), height: Math.max(1, Math.round(bh * shrink)) };
}

/**
 * Makes a rendition: orientation applied, sRGB, no metadata (sharp writes none unless asked), the
 * crop of `cubrir` around the focal point as near its centre as the picture's edges allow.
 */
export async function render(source: Source, wanted: Wanted, opaque: boolean): Promise<Buffer> {
  const box = boxOf(source, wanted);
  let image = sharp(source.datos).rotate().toColourspace('srgb');
  if (wanted.ajuste === 'contener') {
    image = image.resize(box.width, box.height, { fit: 'fill' });
  } else {
    // Scale so that the box is covered, then cut the box out around the focal point.
    const scale = Math.max(box.width / source.ancho, box.height / source.alto);
    const sw = Math.max(box.width, Math.round(source.ancho * scale));
    const sh = Math.max(box.height, Math.round(source.alto * scale));
    const left = cropStart(source.foco_x, sw, box.width);
    const top = cropStart(source.foco_y, sh, box.height);
    image = image.resize(sw, sh, { fit: 'fill' }).extract({ left, top, width: box.width, height: box.height });
  }
  if (wanted.formato === 'jpeg' && !opaque) image = image.flatten({ background: '#ffffff' });
  return image.toFormat(wanted.formato).toBuffer();
}


/** Whether an original has no transparency (then a format chosen for it is JPEG, else PNG). */
export async function isOpaque(datos: Buffer): Promise<boolean> {
  const { hasAlpha } = await sharp(datos).metadata();
  return !hasAlpha;
}

/**
 * The format an `Accept` header chooses: AVIF, else WebP, when named with q > 0 (`image/*` names
 * neither); else JPEG for opaque originals and PNG for transparent ones.
 */
export function formatFor(accept: string | undefined, opaque: boolean): Formato {
  const named = new Map<string, number>();
  for (const item of (accept ?? '').split(',')) {
    const [type = '', ...params] = item.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    named.set(type.trim(), q ? Number(q.slice(2)) : 1);
  }
  for (const formato of ['avif', 'webp'] as const) if ((named.get(`image/${formato}`) ?? 0) > 0) return formato;
  return opaque ? 'jpeg' : 'png';
}
