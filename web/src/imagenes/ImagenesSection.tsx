import { Box, Divider, Stack, Typography } from '@mui/material';
import { useRef, useState } from 'react';
import { useDataProvider, useGetList, useNotify, useRecordContext, useResourceContext, useTranslate, type RaRecord } from 'react-admin';
import type { CarteleraDataProvider } from '../dataProvider';
import { ImagenCard, type ImageActions } from './ImagenCard';
import { UploadZone } from './UploadZone';

/** The most images a record's page lists. */
const SHOWN = 100;

/** The type a dragged card carries, so that a file dropped on a card is not taken for a move. */
const DRAGGED = 'application/x-cartelera-imagen';

/**
 * The section "Imágenes" of a record's page (a movie, work, urban event, artist or venue): its
 * images in order, the first its poster, and where more are added. Every change is sent at once,
 * one after the other (a focal point moved by the keyboard is a change a press), and the list is
 * read again after each, since a move or a deletion moves the others along.
 */
export const ImagenesSection = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const record = useRecordContext();
  const recurso = useResourceContext() ?? '';
  const dataProvider = useDataProvider<CarteleraDataProvider>();
  const queue = useRef(Promise.resolve());
  const [dragged, setDragged] = useState<RaRecord>();
  const clave = record?.id;
  const { data: images = [], refetch } = useGetList(
    'imagenes',
    { filter: { recurso, clave }, sort: { field: 'orden', order: 'ASC' }, pagination: { page: 1, perPage: SHOWN } },
    { enabled: clave !== undefined },
  );
  if (clave === undefined) return null;

  const one = (work: () => Promise<unknown>, done?: string) => {
    queue.current = queue.current.then(async () => {
      try {
        await work();
        if (done) notify(done, { type: 'info' });
      } catch (error) {
        notify(error instanceof Error ? error.message : String(error), { type: 'error' });
      }
      await refetch();
    });
    return queue.current;
  };
  const actions: ImageActions = {
    save: (image, changes) => one(() => dataProvider.patchImage(image.id, changes)),
    remove: (image) => one(() => dataProvider.delete('imagenes', { id: image.id, previousData: image }), 'cartelera.imagenes.deleted'),
  };

  return (
    // On a phone the form's toolbar is fixed over the screen's foot: room below, so that nothing stays under it.
    <Box component="section" aria-labelledby="imagenes-titulo" sx={{ p: 2, pb: { xs: 10, sm: 2 } }}>
      <Divider sx={{ mb: 2 }} />
      <Typography variant="h6" component="h2" id="imagenes-titulo">
        {translate('cartelera.imagenes.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {translate(images.length === 0 ? 'cartelera.imagenes.none' : 'cartelera.imagenes.help')}
      </Typography>
      {images.length > 0 && (
        <Stack component="ol" spacing={2} sx={{ listStyle: 'none', p: 0 }}>
          {images.map((image) => (
            <ImagenCard
              key={image.id}
              image={image}
              total={images.length}
              actions={actions}
              drag={{
                draggable: true,
                onDragStart: (event) => {
                  event.dataTransfer.setData(DRAGGED, String(image.id));
                  setDragged(image);
                },
                onDragOver: (event) => {
                  if (event.dataTransfer.types.includes(DRAGGED)) event.preventDefault();
                },
                onDrop: (event) => {
                  if (!dragged || !event.dataTransfer.types.includes(DRAGGED)) return;
                  event.preventDefault();
                  if (dragged.id !== image.id) void actions.save(dragged, { orden: image.orden });
                  setDragged(undefined);
                },
              }}
            />
          ))}
        </Stack>
      )}
      <UploadZone recurso={recurso} clave={clave} onUploaded={() => void refetch()} />
    </Box>
  );
};
