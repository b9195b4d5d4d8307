import { Link } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { osmUrl } from './coordenadas';

/** "Ver en OpenStreetMap", for a venue with coordinates; nothing for one without. */
export const OsmLink = (_props: { label?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (typeof record?.latitud !== 'number' || typeof record?.longitud !== 'number') return <>{translate('cartelera.lugares.noPoint')}</>;
  return (
    <Link href={osmUrl(record.latitud, record.longitud)} target="_blank" rel="noopener noreferrer">
      {`${record.latitud}, ${record.longitud}: ${translate('cartelera.lugares.osm')}`}
    </Link>
  );
};
