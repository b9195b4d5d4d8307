import { Button, Stack } from '@mui/material';
import { useNotify, useTranslate, useUpdate, type RaRecord } from 'react-admin';
import { valueLabels } from '../../../src/catalogue/labels';
import { shownWallClock } from './wallClock';

type Estado = keyof typeof valueLabels.estado;

/** The one-click changes of a showtime's estado: cancel, postpone, or back to scheduled. */
const ACTIONS: { estado: Estado; label: string }[] = [
  { estado: 'cancelada', label: 'cartelera.funciones.cancel' },
  { estado: 'aplazada', label: 'cartelera.funciones.postpone' },
  { estado: 'programada', label: 'cartelera.funciones.reschedule' },
];

/**
 * Cancel or postpone a showtime in one click. The change waits a few seconds under a notification
 * with "Deshacer" (react-admin's undoable mode): undone there, nothing is sent.
 */
export const EstadoButtons = ({ funcion }: { funcion: RaRecord }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [update, { isPending }] = useUpdate();
  const when = shownWallClock(funcion.inicio);
  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
      {ACTIONS.filter(({ estado }) => estado !== funcion.estado).map(({ estado, label }) => (
        <Button
          key={estado}
          size="small"
          variant="outlined"
          disabled={isPending}
          aria-label={translate(`${label}Of`, { when })}
          onClick={() => {
            void update(
              'funciones',
              { id: funcion.id, data: { ...funcion, estado }, previousData: funcion },
              {
                mutationMode: 'undoable',
                onSuccess: () => undefined,
                onError: (error) => notify((error as Error).message, { type: 'error' }),
              },
            );
            notify('cartelera.funciones.changed', { undoable: true, messageArgs: { when, estado: valueLabels.estado[estado] } });
          }}
        >
          {translate(label)}
        </Button>
      ))}
    </Stack>
  );
};
