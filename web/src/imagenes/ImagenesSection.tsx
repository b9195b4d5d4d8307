import { Box, Divider, Stack, Typography } from '@mui/material';
import { useRef } from 'react';
import { useDataProvider, useGetList, useNotify, useRecordContext, useResourceContext, useTranslate } from 'react-admin';
import type { CarteleraDataProvider } from '../dataProvider';
import { ImagenCard, type ImageActions } from './ImagenCard';
import { UploadZone } from './UploadZone';
import { useDragOrder } from './useDragOrder';

/** The most images a record's page lists. */
const SHOWN = 100;

/**
 * The section "Imágenes" of a record's page (a movie, work, urban event, artist or venue): its
 * images in order, the first its poster, and where more are added. Changes are sent one after the
 * other (a focal point once it rests), and the list is read again after each, since a move or a
 * deletion moves the others along.
 */
export const ImagenesSection = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const record = useRecordContext();
  const recurso = useResourceContext() ?? '';
  const dataProvider = useDataProvider<CarteleraDataProvider>();
  const queue = useRef(Promise.resolve());
  const clave = record?.id;
  const { data: images = [], refetch } = useGetList(
    'imagenes',
    { filter: { recurso, clave }, sort: { field: 'orden', order: 'ASC' }, pagination: { page: 1, perPage: SHOWN } },
    { enabled: clave !== undefined },
  );
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
  const drag = useDragOrder((moved, onto) => {
    const [image, target] = [moved, onto].map((id) => images.find((i) => String(i.id) === id));
    if (image && target) void actions.save(image, { orden: target.orden });
  });

  if (clave === undefined) return null;

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
              handle={drag.handle(String(image.id))}
              dragging={drag.moving === String(image.id) ? 'moving' : drag.over === String(image.id) ? 'over' : undefined}
            />
          ))}
        </Stack>
      )}
      <UploadZone recurso={recurso} clave={clave} onUploaded={() => void refetch()} />
    </Box>
  );
};
