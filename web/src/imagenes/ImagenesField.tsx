import { ImageList, ImageListItem, ImageListItemBar } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';

/** How wide a picture is shown on a record's page, in CSS pixels; its rendition (480, one of the service's sizes) is twice as wide, for sharp screens. */
const WIDTH = 240;

/** What a page asks of the service so that its records come with their images, the poster first (and with `embed`'s other relations): a list's rows, or one record's page. */
export const showsImages = (embed: string[] = []) => ({ meta: { embed: [...embed, 'imagenes'] } });

interface Shown {
  url: string;
  alt: string;
  credito: string | null;
  ancho: number;
  alto: number;
}

/**
 * A record's images on its page, in their order (the first, its poster, marked so): each with its
 * alt text and its credit; the edit page's section is where they are added, cropped and ordered.
 */
export const ImagenesField = (_: { label?: string }) => {
  const translate = useTranslate();
  const imagenes = useRecordContext()?.imagenes as Shown[] | undefined;
  if (!imagenes || imagenes.length === 0) return <span>{translate('cartelera.imagenes.noneShown')}</span>;
  return (
    <ImageList cols={0} gap={12} sx={{ gridTemplateColumns: `repeat(auto-fill, minmax(${WIDTH / 2}px, ${WIDTH}px)) !important`, m: 0 }}>
      {imagenes.map((imagen, i) => (
        <ImageListItem key={imagen.url}>
          <img src={`${imagen.url}?ancho=${WIDTH * 2}`} alt={imagen.alt} width={imagen.ancho} height={imagen.alto} style={{ width: '100%', height: 'auto' }} loading="lazy" />
          <ImageListItemBar
            position="below"
            title={i === 0 ? translate('cartelera.imagenes.poster') : undefined}
            subtitle={imagen.credito ?? undefined}
          />
        </ImageListItem>
      ))}
    </ImageList>
  );
};
