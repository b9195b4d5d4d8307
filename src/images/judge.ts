import { createHash } from 'node:crypto';
import sharp from './vips.js';
import type { TipoImagen } from '../catalogue/fields.js';
import { messages } from '../catalogue/messages.js';
import { invalid, tooLarge, unsupported } from '../catalogue/refusal.js';

/** What the service keeps of an uploaded file: its bytes, and what its content says. */
export interface Original {
  datos: Buffer;
  digest: string;
  tipo: TipoImagen;
  /** Pixels with its EXIF orientation applied. */
  ancho: number;
  alto: number;
  bytes: number;
}

const TIPOS: Record<string, TipoImagen> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', heif: 'image/avif' };

/**
 * Judges a file by its content: the kind and the pixel count from its header alone (a
 * decompression bomb never reaches the decoder), then the whole picture decoded, so that a damaged
 * or truncated file is refused. Throws the Refusal the contract names.
 */
export async function judgeImage(datos: Buffer, maxPixels: number): Promise<Original> {
  const header = await sharp(datos).metadata().catch(() => undefined);
  const tipo = header && TIPOS[header.format];
  // HEIF holds AVIF and HEIC alike: only the AV1 kind is taken.
  if (!header || !tipo || (header.format === 'heif' && header.compression !== 'av1')) throw unsupported(messages.image.notAnImage);
  if (header.width * header.height * (header.pages ?? 1) > maxPixels) throw tooLarge(messages.image.tooManyPixels(maxPixels));
  // Every pixel decoded, in strips, none kept: a statistic instead of the raw picture (tens of MB).
  await sharp(datos, { failOn: 'truncated', limitInputPixels: maxPixels })
    .stats()
    .catch(() => {
      throw invalid(messages.image.damaged);
    });
  const turned = (header.orientation ?? 1) >= 5;
  return {
    datos,
    digest: createHash('sha256').update(datos).digest('hex'),
    tipo,
    ancho: turned ? header.height : header.width,
    alto: turned ? header.width : header.height,
    bytes: datos.length,
  };
}
