import { useRecordContext } from 'react-admin';

/** The width of a list's thumbnail, in CSS pixels; its rendition is twice as wide, for sharp screens. */
const WIDTH = 64;

/** A record's poster (its first image) as a list shows it: a 128-pixel rendition with its alt text; nothing when it has none. */
export const Poster = () => {
  const poster = (useRecordContext()?.imagenes as { url: string; alt: string }[] | undefined)?.[0];
  if (!poster) return null;
  return <img src={`${poster.url}?ancho=${WIDTH * 2}`} alt={poster.alt} width={WIDTH} style={{ height: 'auto', display: 'block' }} />;
};
