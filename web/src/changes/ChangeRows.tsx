import type { ReactNode } from 'react';
import { Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import { DataTable, Pagination, useListContext, useTranslate } from 'react-admin';
import { Stacked, type Column } from '../common/Rows';
import { ShowLink } from '../common/ShowLink';
import { useChangeText, type Change } from './changeText';

/** What a row can tell of a change, each in a column of its own. */
export type ChangeColumn = 'when' | 'who' | 'resource' | 'record' | 'what';

interface Props {
  /** What the rows are, for screen readers: "Historial", "Papelera" (a message key). */
  label: string;
  columns: ChangeColumn[];
  /** The rows are one record's history: "what" does not name the record again. */
  ofOneRecord?: boolean;
  /** A last, unnamed column: the row's button. */
  action?: (change: Change) => ReactNode;
  /** What an empty list says (a message key). */
  empty?: string;
}

/**
 * The changes of the list in context (Cambios recientes, the Papelera, a record's Historial), one
 * row each: react-admin's table on wide screens, one block per change on a phone. A record that is
 * still there is named by a link to its page.
 */
export const ChangeRows = ({ label, columns, ofOneRecord = false, action, empty }: Props) => {
  const translate = useTranslate();
  const text = useChangeText();
  const small = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const { data } = useListContext<Change>();
  const record = (change: Change) =>
    change.operacion === 'baja' ? text.title(change) : <ShowLink resource={change.recurso} id={change.clave}>{text.title(change)}</ShowLink>;
  const cells: Record<ChangeColumn, (change: Change) => ReactNode> = {
    when: text.when,
    who: text.who,
    resource: text.resource,
    record,
    what: (change) => (
      <Stack>
        <span>
          <strong>{text.operation(change)}</strong>
          {!ofOneRecord && <> {record(change)}</>}
        </span>
        {change.operacion === 'modificacion' && text.fields(change).map((line) => <span key={line}>{line}</span>)}
      </Stack>
    ),
  };
  const shown: Column<Change>[] = [
    ...columns.map((column) => ({ title: translate(`cartelera.changes.columns.${column}`), cell: cells[column] })),
    ...(action ? [{ title: '', cell: action }] : []),
  ];
  const emptyText = empty && (
    <Typography variant="body2" sx={{ py: 1 }}>
      {translate(empty)}
    </Typography>
  );

  if (small) {
    if (data?.length === 0) return emptyText;
    return <Stacked<Change> label={translate(label)} columns={shown} rows={data ?? []} rowKey={(change) => change.id} />;
  }
  return (
    <DataTable<Change> aria-label={translate(label)} bulkActionButtons={false} rowClick={false} hover={false} empty={emptyText}>
      {shown.map(({ title, cell }, i) => (
        <DataTable.Col<Change> key={i} label={title || <span />} render={cell} disableSort />
      ))}
    </DataTable>
  );
};

/** The changes' pages, shown only when there is more than one. */
export const ChangePagination = () => {
  const { total, perPage } = useListContext();
  return total !== undefined && total > perPage ? <Pagination rowsPerPageOptions={[]} /> : null;
};
