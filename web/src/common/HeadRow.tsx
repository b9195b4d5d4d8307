import { TableCell, TableHead, TableRow } from '@mui/material';

/** A table's header row: one cell per title (an empty title leaves the cell blank, as over buttons). */
export const HeadRow = ({ titles }: { titles: string[] }) => (
  <TableHead>
    <TableRow>
      {titles.map((title, i) => (
        <TableCell key={`${i}-${title}`}>{title}</TableCell>
      ))}
    </TableRow>
  </TableHead>
);
