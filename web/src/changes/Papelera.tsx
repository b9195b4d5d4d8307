import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import { Alert, Button, Card, CardContent, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { ListContextProvider, ResourceContextProvider, type Identifier, Title, useDataProvider, useGetList, useList, useNotify, useRefresh, useTranslate } from 'react-admin';
import { ShowLink } from '../common/ShowLink';
import type { CarteleraDataProvider } from '../dataProvider';
import { ChangePagination, ChangeRows } from './ChangeRows';
import { useChangeText, type Change } from './changeText';

/** How many of the latest deletions the page looks at, newest first. */
const SHOWN = 100;

/**
 * The Papelera (#/papelera): records deleted by someone, newest first, a page at a time.
 * "Restaurar" is the undo of that deletion: the record comes back with its key, and with every
 * participation the deletion took. Those participations are deletions of their own in the change
 * log (with a `causa`), which the service cannot leave out of a list: so the page reads the latest
 * deletions and pages through those that were not taken along, in the browser.
 */
export const Papelera = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const onError = (error: Error) => notify(error.message, { type: 'error' });
  const latest = { sort: { field: 'id', order: 'DESC' as const }, pagination: { page: 1, perPage: SHOWN } };
  const { data: bajas, isPending } = useGetList<Change>('cambios', { ...latest, filter: { operacion: 'baja' } }, { onError });
  const own = useMemo(() => bajas?.filter((change) => change.causa === null), [bajas]);
  const oldest = own?.at(-1)?.id;
  // A deletion already undone shows as restored, with a link to the record.
  const { data: undone } = useGetList<Change>(
    'cambios',
    { ...latest, filter: { operacion: 'alta', id_gte: oldest }, pagination: { page: 1, perPage: 1000 } },
    { enabled: oldest !== undefined, onError },
  );
  const restored = useMemo(() => new Set(undone?.map((change) => change.deshace)), [undone]);
  const listContext = useList({ data: own, isPending, perPage: 25 });

  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate('cartelera.changes.trash')} />
      <CardContent>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {translate('cartelera.changes.trashHelp')}
        </Typography>
        {own?.length === 0 && <Alert severity="info">{translate('cartelera.changes.trashEmpty')}</Alert>}
        {own && own.length > 0 && (
          <ResourceContextProvider value="cambios">
            <ListContextProvider value={listContext}>
              <ChangeRows
                label="cartelera.changes.trash"
                columns={['record', 'resource', 'who', 'when']}
                action={(change) =>
                  restored.has(change.id) ? (
                    <ShowLink {...pageOf(change)}>
                      {translate('cartelera.changes.alreadyRestored')}
                    </ShowLink>
                  ) : (
                    <RestoreButton change={change} />
                  )
                }
              />
              <ChangePagination />
            </ListContextProvider>
          </ResourceContextProvider>
        )}
      </CardContent>
    </Card>
  );
};

/** Where a restored record is seen: its page; an image's, on the page of the record it belongs to. */
function pageOf(change: Change): { resource: string; id: Identifier } {
  const image = change.antes as { recurso?: string; clave?: number } | null;
  if (change.recurso === 'imagenes' && image?.recurso !== undefined && image.clave !== undefined) return { resource: image.recurso, id: image.clave };
  return { resource: change.recurso, id: change.clave };
}

/** Undoes a deletion, then reads the page again: the row then links to the record. */
const RestoreButton = ({ change }: { change: Change }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const text = useChangeText();
  const dataProvider = useDataProvider<CarteleraDataProvider>();
  const [pending, setPending] = useState(false);
  async function restore() {
    setPending(true);
    try {
      const made = await dataProvider.undo(change.id);
      // The participations the deletion took come back with it; with none, there is nothing to say of them.
      const participations = made.filter((c) => c.recurso === 'participaciones').length;
      const message = participations > 0 ? 'cartelera.changes.restoredWithParticipations' : 'cartelera.changes.restoredFromTrash';
      notify(message, { type: 'info', messageArgs: { title: text.title(change), smart_count: participations } });
      refresh();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setPending(false);
    }
  }
  return (
    <Button size="small" startIcon={<RestoreFromTrashIcon />} disabled={pending} onClick={() => void restore()}>
      {translate('cartelera.changes.restore')}
    </Button>
  );
};
