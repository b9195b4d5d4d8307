import { Box, Card, CardContent, CardMedia, Stack, Typography } from '@mui/material';
import { AutocompleteInput, List, Pagination, ReferenceInput, SelectInput, useListContext, useTranslate, type RaRecord } from 'react-admin';
import { valueLabel } from '../../../src/catalogue/labels';
import { ShowLink } from '../common/ShowLink';
import { TipoText } from '../common/related';
import { itemResourceOf, tipoEventoChoices } from '../common/tipoEvento';

const filters = [
  <ReferenceInput key="lugar_id" source="lugar_id" reference="lugares" sort={{ field: 'nombre', order: 'ASC' }} alwaysOn>
    <AutocompleteInput optionText="nombre" label="resources.funciones.fields.lugar_id" sx={{ minWidth: 240 }} />
  </ReferenceInput>,
  <SelectInput key="tipo_evento" source="tipo_evento" choices={tipoEventoChoices} label="resources.funciones.fields.tipo_evento" alwaysOn />,
];

/** A busy week of a city fits in a page. */
const PER_PAGE = 200;

/** A poster's width: the rendition the service makes for it. */
const POSTER = 128;

const DAY = new Intl.DateTimeFormat('es', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
/** "Viernes, 27 de noviembre", from the wall clock's date as written (never the browser's zone). */
function dayTitle(inicio: string): string {
  const text = DAY.format(new Date(`${inicio.slice(0, 10)}T00:00:00Z`));
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A showtime as a listings page shows it: poster, title, kind and category, time, venue, estado. */
const Entry = ({ f }: { f: RaRecord }) => (
  <Card variant="outlined" component="li" sx={{ display: 'flex', listStyle: 'none' }}>
    {f.imagen && <CardMedia component="img" src={`${f.imagen}?ancho=${POSTER}`} alt={f.evento?.titulo ?? ''} sx={{ width: POSTER / 1.5, objectFit: 'cover' }} />}
    <CardContent sx={{ py: 1 }}>
      <Typography variant="subtitle1" component="h3">
        <ShowLink resource={itemResourceOf(f.tipo_evento)} id={f.evento_id}>
          {f.evento?.titulo}
        </ShowLink>
      </Typography>
      <Typography variant="body2">
        {f.inicio.slice(11, 16)} · <ShowLink resource="lugares" id={f.lugar_id}>{f.lugar?.nombre}</ShowLink>
      </Typography>
      <Typography variant="body2" color="text.secondary">
        <TipoText tipo={f.tipo_evento} />
        {f.evento?.categoria ? ` · ${f.evento.categoria}` : ''}
        {f.estado !== 'programada' ? ` · ${valueLabel('estado', f.estado)}` : ''}
        {f.notas ? ` · ${f.notas}` : ''}
      </Typography>
    </CardContent>
  </Card>
);

/** The week's showtimes, a heading per day, in the order the service answers (`inicio`). */
const Days = () => {
  const { data = [], isPending } = useListContext();
  const translate = useTranslate();
  if (isPending) return null;
  if (data.length === 0) return <Typography sx={{ p: 2 }}>{translate('cartelera.listings.empty')}</Typography>;
  const days = new Map<string, RaRecord[]>();
  for (const f of data) days.set(f.inicio.slice(0, 10), [...(days.get(f.inicio.slice(0, 10)) ?? []), f]);
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      {[...days].map(([day, funciones]) => (
        <Box component="section" key={day} aria-labelledby={`dia-${day}`}>
          <Typography variant="h6" component="h2" id={`dia-${day}`}>
            {dayTitle(day)}
          </Typography>
          <Stack component="ul" spacing={1} sx={{ p: 0, m: 0 }}>
            {funciones.map((f) => (
              <Entry key={f.id} f={f} />
            ))}
          </Stack>
        </Box>
      ))}
    </Stack>
  );
};

/**
 * What's on this week as the public would see it (`GET /cartelera`: today and six days on), by day,
 * filtered by venue and kind. No sort is sent: the service answers in `inicio` order.
 */
export const CarteleraList = () => (
  <List
    filters={filters}
    sort={{ field: '', order: 'ASC' }}
    perPage={PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={[50, PER_PAGE]} />}
    exporter={false}
    actions={false}
    // An empty week keeps its filters on screen, and says so itself (Days).
    empty={false}
  >
    <Days />
  </List>
);
