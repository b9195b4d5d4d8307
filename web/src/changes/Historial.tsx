import RestoreIcon from '@mui/icons-material/Restore';
import { Box, Button, Stack, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useNotify, useRecordContext, useRefresh, useResourceContext, useTranslate, useUpdate } from 'react-admin';
import { HeadRow } from '../common/HeadRow';
import { request } from '../dataProvider/http';
import { useChangeText, type Change } from './changeText';

/**
 * A record's history on its page: who changed what, when, each field before → after, newest
 * first. "Restaurar esta versión" saves that version as an ordinary edit (with If-Match), so a
 * concurrent edit is met as any edit meets it.
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
        onError: (error) => notify(error instanceof Error ? error.message : String(error), { type: 'error' }),
      },
    );
  return (
    <Box sx={{ overflowX: 'auto', maxWidth: '100%' }}>
    <Table size="small" aria-label={translate('cartelera.changes.history')}>
      <HeadRow titles={[...['when', 'who', 'what'].map((c) => translate(`cartelera.changes.columns.${c}`)), '']} />
      <TableBody>
        {changes.map((change, i) => (
          <TableRow key={change.id}>
            <TableCell>{text.when(change)}</TableCell>
            <TableCell>{text.who(change)}</TableCell>
            <TableCell>
              <Stack>
                <strong>{text.operation(change)}</strong>
                {change.operacion === 'modificacion' && text.fields(change).map((line) => <span key={line}>{line}</span>)}
              </Stack>
            </TableCell>
            <TableCell>
              {i > 0 && change.despues && (
                <Button size="small" startIcon={<RestoreIcon />} disabled={isPending} onClick={() => restore(change)}>
                  {translate('cartelera.changes.restoreVersion')}
                </Button>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
    </Box>
  );
};
