import AddIcon from '@mui/icons-material/Add';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import { Button, Stack, Typography } from '@mui/material';
import {
  EditButton,
  ReferenceField,
  TextField,
  useGetList,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { valueLabel } from '../../../src/catalogue/labels';
import { Rows, type Column } from '../common/Rows';
import { itemResourceOf, type TipoEvento } from '../common/tipoEvento';
import { TipoText } from '../common/related';
import { EstadoButtons } from './EstadoButtons';
import { shownWallClock, upcomingFirst, useHora } from './wallClock';

/** Most showtimes a page lists: a season of a play, twice a day. */
const SHOWN = 500;

interface Props {
  label?: string;
  /** The page's record: a movie, work or event (of this kind), or a venue. */
  by: TipoEvento | 'lugar';
}

/**
 * The showtimes of the page's record, upcoming first: when, where (or what, on a venue's page),
 * estado, notes, and the one-click estado buttons; then adding one, or a series.
 */
export const FuncionesField = ({ by }: Props) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const filter = by === 'lugar' ? { lugar_id: record?.id } : { tipo_evento: by, evento_id: record?.id };
  const hora = useHora();
  const { data = [], isPending } = useGetList('funciones', { filter, pagination: { page: 1, perPage: SHOWN }, sort: { field: 'inicio', order: 'ASC' } }, { enabled: record !== undefined });
  if (record === undefined || isPending || hora === undefined) return null;
  const t = (field: string) => translate(`resources.funciones.fields.${field}`);
  const columns: Column<RaRecord>[] = [
    { title: t('inicio'), cell: (f) => shownWallClock(f.inicio) },
    by === 'lugar'
      ? {
          title: t('evento_id'),
          cell: (f) => (
            <>
              <TipoText tipo={f.tipo_evento} />{': '}
              <ReferenceField record={f} source="evento_id" reference={itemResourceOf(f.tipo_evento) ?? ''} link="show">
                <TextField source="titulo" />
              </ReferenceField>
            </>
          ),
        }
      : {
          title: t('lugar_id'),
          cell: (f) => (
            <ReferenceField record={f} source="lugar_id" reference="lugares" link="show">
              <TextField source="nombre" />
            </ReferenceField>
          ),
        },
    { title: t('estado'), cell: (f) => valueLabel('estado', f.estado) },
    { title: t('notas'), cell: (f) => f.notas },
    {
      title: '',
      cell: (f) => (
        <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" alignItems="center">
          <EstadoButtons funcion={f} />
          <EditButton resource="funciones" record={f} aria-label={translate('cartelera.funciones.editOf', { when: shownWallClock(f.inicio) })} />
        </Stack>
      ),
    },
  ];
  return (
    <Stack spacing={1}>
      {data.length === 0 ? (
        <Typography variant="body2">{translate('cartelera.funciones.none')}</Typography>
      ) : (
        <Rows label={translate('cartelera.funciones.title')} columns={columns} rows={upcomingFirst(data as (RaRecord & { inicio: string })[], hora.ahora)} rowKey={(f) => f.id} />
      )}
      {by !== 'lugar' && (
        <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
          {/* Labelled buttons at every width: react-admin's would float, or shrink to an icon, on a phone. */}
          <Button component={Link} to="/funciones/create" state={{ record: { tipo_evento: by, evento_id: record.id } }} startIcon={<AddIcon />}>
            {translate('cartelera.funciones.add')}
          </Button>
          <Button component={Link} to="/serie" state={{ tipo_evento: by, evento_id: record.id, titulo: record.titulo }} startIcon={<EventRepeatIcon />}>
            {translate('cartelera.funciones.addSeries')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
};
