import { Alert, Button, Stack, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useCreate, useDataProvider, useGetList, useNotify, useRecordContext, useTranslate, type HttpError, type RaRecord } from 'react-admin';
import type { CarteleraDataProvider } from '../dataProvider';

/**
 * An urban event without showtimes: its first one, from its `fecha` and `lugar`, at the venue of
 * that name (compared as the service compares names), or at a new venue of that name, whose
 * address is asked for.
 */
export const PrimeraFuncion = () => {
  const evento = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<CarteleraDataProvider>();
  const [create, { isPending }] = useCreate();
  const [lugar, setLugar] = useState<RaRecord | null | undefined>(undefined);
  const [direccion, setDireccion] = useState('');
  const { total, isPending: reading } = useGetList(
    'funciones',
    { filter: { tipo_evento: 'eventoUrbano', evento_id: evento?.id }, pagination: { page: 1, perPage: 1 } },
    { enabled: evento !== undefined },
  );
  useEffect(() => {
    if (evento?.lugar) dataProvider.lugarNamed(evento.lugar).then((found) => setLugar(found ?? null), () => setLugar(null));
  }, [evento?.lugar, dataProvider]);
  if (evento === undefined || reading || total !== 0 || lugar === undefined) return null;
  const fail = (error: unknown) => notify((error as HttpError).message, { type: 'error' });
  async function makeIt(event: RaRecord) {
    try {
      const venue = lugar ?? (await create('lugares', { data: { nombre: event.lugar, direccion } }, { returnPromise: true }));
      await create(
        'funciones',
        { data: { tipo_evento: 'eventoUrbano', evento_id: event.id, lugar_id: venue.id, inicio: event.fecha } },
        { returnPromise: true },
      );
      notify('cartelera.funciones.firstMade', { type: 'success' });
    } catch (error) {
      fail(error);
    }
  }
  return (
    <Alert severity="info" role="region" aria-label={translate('cartelera.funciones.first')}>
      <Stack spacing={1}>
        <span>{translate(lugar ? 'cartelera.funciones.firstAt' : 'cartelera.funciones.firstNewVenue', { lugar: evento.lugar })}</span>
        {!lugar && (
          <TextField
            name="direccion"
            label={translate('resources.lugares.fields.direccion')}
            value={direccion}
            onChange={(event) => setDireccion(event.target.value)}
            size="small"
            required
          />
        )}
        <Button variant="contained" onClick={() => makeIt(evento)} disabled={isPending || (!lugar && direccion.trim() === '')} sx={{ alignSelf: 'flex-start' }}>
          {translate('cartelera.funciones.first')}
        </Button>
      </Stack>
    </Alert>
  );
};
