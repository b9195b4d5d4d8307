import type { ReactNode } from 'react';
import { Box, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography, useMediaQuery, type Theme } from '@mui/material';

export interface Column<T> {
  /** The column's heading; an empty one leaves the cell unnamed, as over buttons. */
  title: string;
  cell: (row: T) => ReactNode;
}

interface Props<T> {
  /** What the rows are, for screen readers: "Historial", "Papelera". */
  label: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
}

/**
 * Rows of the admin's own pages (an import's report): a table on wide screens; on a phone, one
 * block per row with each value under its heading (see Stacked).
 */
export function Rows<T>({ label, columns, rows, rowKey }: Props<T>) {
  const small = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  if (small) return <Stacked label={label} columns={columns} rows={rows} rowKey={rowKey} />;
  return (
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          {columns.map(({ title }, i) => (
            <TableCell key={`${i}-${title}`}>{title}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={rowKey(row)}>
            {columns.map(({ title, cell }, i) => (
              <TableCell key={`${i}-${title}`}>{cell(row)}</TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * Rows on a phone: one block per row with each value under its heading (empty ones left out), so
 * nothing is wider than the screen and every button is within reach.
 */
export function Stacked<T>({ label, columns, rows, rowKey }: Props<T>) {
  return (
    <Box component="ul" aria-label={label} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {rows.map((row) => (
        <Box component="li" key={rowKey(row)} sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider', overflowWrap: 'anywhere' }}>
          <Stack spacing={0.5}>
            {columns.map(({ title, cell }, i) => {
              const value = cell(row);
              // A heading over nothing (a file's problem has no row) would only lengthen the page.
              if (value === undefined || value === null || value === false || value === '') return null;
              return (
                <Box key={`${i}-${title}`}>
                  {title && (
                    <Typography variant="caption" color="text.secondary" component="div">
                      {title}
                    </Typography>
                  )}
                  <Typography variant="body2" component="div">
                    {value}
                  </Typography>
                </Box>
              );
            })}
          </Stack>
        </Box>
      ))}
    </Box>
  );
}
