import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import { Alert, Button, Card, CardContent, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Title, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { Rows } from '../common/Rows';
import { request } from '../dataProvider/http';
import { recordPath, useChangeText, type Change } from './changeText';

/** How many deletions the page lists, newest first. */
const SHOWN = 100;

/**
 * The Papelera (#/papelera): records deleted by someone (not those a deletion took along), newest
 * first. "Restaurar" is the undo of that deletion: the record comes back with its key, and with
 * every participation the deletion took.
 */
export const Papelera = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const text = useChangeText();
  const [deleted, setDeleted] = useState<Change[]>();
  const [restored, setRestored] = useState<Map<number, Change>>(new Map());
  const load = useCallback(async () => {
    const bajas = (await request('GET', `/cambios?operacion=baja&_sort=-id&_limit=${SHOWN}`)).json as Change[];
    const own = bajas.filter((c) => c.causa === null);
    // A deletion already undone shows as restored, with a link to the record.
    const undone = own.length === 0 ? [] : ((await request('GET', `/cambios?operacion=alta&id_gte=${Math.min(...own.map((c) => c.id))}&_limit=1000`)).json as Change[]);
    setRestored(new Map(undone.filter((c) => c.deshace !== null).map((c) => [c.deshace as number, c])));
    setDeleted(own);
  }, []);
  useEffect(() => {
    load().catch((error: unknown) => notify(error instanceof Error ? error.message : String(error), { type: 'error' }));
  }, [load, notify]);

  async function restore(change: Change) {
    try {
      const made = (await request('POST', `/cambios/${change.id}/deshacer`)).json as Change[];
      // The participations the deletion took come back with it; with none, there is nothing to say of them.
      const participations = made.filter((c) => c.recurso === 'participaciones').length;
      const message = participations > 0 ? 'cartelera.changes.restoredWithParticipations' : 'cartelera.changes.restoredFromTrash';
      notify(message, { type: 'info', messageArgs: { title: text.title(change), smart_count: participations } });
      await load();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    }
  }

  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate('cartelera.changes.trash')} />
      <CardContent>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {translate('cartelera.changes.trashHelp')}
        </Typography>
        {deleted?.length === 0 && <Alert severity="info">{translate('cartelera.changes.trashEmpty')}</Alert>}
        {deleted && deleted.length > 0 && (
          <Rows<Change>
            label={translate('cartelera.changes.trash')}
            rows={deleted}
            rowKey={(change) => change.id}
            columns={[
              ...(['record', 'resource', 'who', 'when'] as const).map((column) => ({
                title: translate(`cartelera.changes.columns.${column}`),
                cell: { record: text.title, resource: text.resource, who: text.who, when: text.when }[column],
              })),
              {
                title: '',
                cell: (change) =>
                  restored.has(change.id) ? (
                    <Link to={recordPath(change)}>{translate('cartelera.changes.alreadyRestored')}</Link>
                  ) : (
                    <Button size="small" startIcon={<RestoreFromTrashIcon />} onClick={() => restore(change)}>
                      {translate('cartelera.changes.restore')}
                    </Button>
                  ),
              },
            ]}
          />
        )}
      </CardContent>
    </Card>
  );
};
