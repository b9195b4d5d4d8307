import { useRecordContext } from 'react-admin';
import Typography from '@mui/material/Typography';
import { fechaText } from '../common/fecha';

export { fechaText };

/** An event's date as it was entered (see common/fecha.ts); a show page labels a field by its `source`. */
export const FechaField = ({ source = 'fecha' }: { source?: 'fecha' }) => {
  const record = useRecordContext();
  return (
    <Typography component="span" variant="body2">
      {fechaText(record?.[source])}
    </Typography>
  );
};
