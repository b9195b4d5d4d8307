import RestoreIcon from '@mui/icons-material/Restore';
import { Button, Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useNotify, useRecordContext, useRefresh, useResourceContext, useShowContext, useTranslate, useUpdate, type HttpError } from 'react-admin';
import { ConflictAlert } from '../common/ConflictAwareEdit';
import { Rows } from '../common/Rows';
import { request } from '../dataProvider/http';
import { useChangeText, type Change } from './changeText';

/**
 * A record's history on its page: who changed what, when, each field before → after, newest first.
 * "Restaurar esta versión" saves that version as an ordinary edit, whose If-Match is the version
 * the page shows: a change made meanwhile is met as any edit meets it, with the conflict's alert,
 * and nothing is overwritten.
 */
export const Historial = (_props: { label?: string }) => {
  const record = useRecordContext();
  const resource = useResourceContext();
  const translate = useTranslate();
  const text = useChangeText();
  const notify = useNotify();
  const refresh = useRefresh();
  const [update, { isPending }] = useUpdate();
  const [changes, setChanges] = useState<Change[]>();
  const [conflict, setConflict] = useState(false);
  const { refetch } = useShowContext();
  const load = useCallback(async () => {
    if (!record || !resource) return;
    const answer = await request('GET', `/cambios?recurso=${encodeURIComponent(resource)}&clave=${encodeURIComponent(String(record.id))}&_sort=-id&_limit=100`);
    setChanges(answer.json as Change[]);
  }, [record, resource]);
  useEffect(() => {
    load().catch((error: unknown) => notify(error instanceof Error ? error.message : String(error), { type: 'error' }));
  }, [load, notify]);

  if (!record || !changes) return null;
  if (changes.length === 0) return <Typography variant="body2">{translate('cartelera.changes.noHistory')}</Typography>;
  const restore = (change: Change) =>
    update(
      resource,
      { id: record.id, data: change.despues ?? {}, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('cartelera.changes.restored', { type: 'info' });
          refresh();
        },
        onError: (error) => {
          if ((error as HttpError).status === 412) return setConflict(true);
          notify(error instanceof Error ? error.message : String(error), { type: 'error' });
        },
      },
    );
  const c = (column: string) => translate(`cartelera.changes.columns.${column}`);
  // Reloading reads the record and its history again: the next restore then goes through.
  const reload = () => Promise.all([refetch(), load()]).then(() => setConflict(false));
  return (
    <>
      {conflict && <ConflictAlert message="cartelera.conflict.restoreMessage" onReload={reload} />}
      <Rows<Change>
        label={translate('cartelera.changes.history')}
        rows={changes}
        rowKey={(change) => change.id}
        columns={[
          { title: c('when'), cell: text.when },
          { title: c('who'), cell: text.who },
          {
            title: c('what'),
            cell: (change) => (
              <Stack>
                <strong>{text.operation(change)}</strong>
                {change.operacion === 'modificacion' && text.fields(change).map((line) => <span key={line}>{line}</span>)}
              </Stack>
            ),
          },
          {
            title: '',
            cell: (change) =>
              change !== changes[0] &&
              change.despues && (
                <Button size="small" startIcon={<RestoreIcon />} disabled={isPending} onClick={() => restore(change)}>
                  {translate('cartelera.changes.restoreVersion')}
                </Button>
              ),
          },
        ]}
      />
    </>
  );
};
