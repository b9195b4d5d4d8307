import RestoreIcon from '@mui/icons-material/Restore';
import { Button } from '@mui/material';
import { useState } from 'react';
import {
  ReferenceManyField,
  useListContext,
  useNotify,
  useRecordContext,
  useRefresh,
  useResourceContext,
  useShowContext,
  useTranslate,
  useUpdate,
  type HttpError,
} from 'react-admin';
import { ConflictAlert } from '../common/ConflictAwareEdit';
import { ChangePagination, ChangeRows } from './ChangeRows';
import type { Change } from './changeText';

/**
 * A record's history on its page: who changed what, when, each field before → after, newest first,
 * a page at a time. "Restaurar esta versión" saves that version as an ordinary edit, whose If-Match
 * is the version the page shows: a change made meanwhile is met as any edit meets it, with the
 * conflict's alert, and nothing is overwritten.
 */
export const Historial = (_props: { label?: string }) => {
  const record = useRecordContext();
  const resource = useResourceContext();
  const notify = useNotify();
  const refresh = useRefresh();
  const [update, { isPending }] = useUpdate();
  const [conflict, setConflict] = useState(false);
  if (!record || !resource) return null;

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
  return (
    <ReferenceManyField reference="cambios" target="clave" filter={{ recurso: resource }} sort={{ field: 'id', order: 'DESC' }} perPage={10} pagination={<ChangePagination />}>
      {conflict && <RestoreConflict onReloaded={() => setConflict(false)} />}
      <ChangeRows
        label="cartelera.changes.history"
        columns={['when', 'who', 'what']}
        ofOneRecord
        empty="cartelera.changes.noHistory"
        action={(change) => <RestoreButton change={change} disabled={isPending} onClick={() => restore(change)} />}
      />
    </ReferenceManyField>
  );
};

/** Reloading reads the record and its history again: the next restore then goes through. */
const RestoreConflict = ({ onReloaded }: { onReloaded: () => void }) => {
  const shown = useShowContext();
  const history = useListContext();
  return <ConflictAlert message="cartelera.conflict.restoreMessage" onReload={() => Promise.all([shown.refetch(), history.refetch()]).then(onReloaded)} />;
};

/** A version can be restored unless it is the record as it stands (the newest change) or its deletion. */
const RestoreButton = ({ change, disabled, onClick }: { change: Change; disabled: boolean; onClick: () => void }) => {
  const translate = useTranslate();
  const { data, page } = useListContext<Change>();
  if (!change.despues || (page === 1 && data?.[0]?.id === change.id)) return null;
  return (
    <Button size="small" startIcon={<RestoreIcon />} disabled={disabled} onClick={onClick}>
      {translate('cartelera.changes.restoreVersion')}
    </Button>
  );
};
