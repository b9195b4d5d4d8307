import type { ReactNode } from 'react';
import { useMediaQuery, type Theme } from '@mui/material';
import { DataTable, SimpleList, type RaRecord } from 'react-admin';

interface Props {
  /** What a phone shows of each record, instead of the table. */
  primaryText: (record: RaRecord) => ReactNode;
  secondaryText?: (record: RaRecord) => ReactNode;
  /** What a phone shows before each record's text (its poster). */
  leftIcon?: (record: RaRecord) => ReactNode;
  children: ReactNode;
}

/** A list's records: a sortable table on wide screens, a simple list on a phone. A row opens the record's page. */
export const ResponsiveTable = ({ primaryText, secondaryText, leftIcon, children }: Props) => {
  const small = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  // A long word (a zone's name, an address) wraps where it must instead of widening the page past a phone's screen.
  if (small) return <SimpleList primaryText={primaryText} secondaryText={secondaryText} leftIcon={leftIcon} linkType="show" sx={{ overflowWrap: 'anywhere' }} />;
  return (
    <DataTable rowClick="show" bulkActionButtons={false}>
      {children}
    </DataTable>
  );
};
