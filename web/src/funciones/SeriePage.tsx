import { Box, Card, CardContent, Typography } from '@mui/material';
import {
  CheckboxGroupInput,
  Form,
  SaveButton,
  SelectInput,
  TextInput,
  Title,
  useDataProvider,
  useNotify,
  useTranslate,
  type HttpError,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router-dom';
import { DIAS, seriesStarts, type SeriesRule } from '../../../src/catalogue/series';
import type { CarteleraDataProvider } from '../dataProvider';
import { FechaInput } from '../common/FechaInput';
import { fechaFromText } from '../common/fecha';
import { itemResourceOf } from '../common/tipoEvento';
import { estadoChoices, LugarInput } from './FuncionInputs';
import { shownWallClock, useHora } from './wallClock';

const diaChoices = DIAS.map((dia) => ({ id: dia, name: dia.charAt(0).toUpperCase() + dia.slice(1) }));

/** How many starts the preview lists before saying how many more. */
const PREVIEWED = 30;

const pieces = (text: unknown) => (typeof text === 'string' ? text.split(/[,;\s]+/).filter((t) => t !== '') : []);
/** `25/12/2026, 1/1/2027` as the API's dates; a piece that is no date is passed on, for the rule to name. */
const exceptDates = (text: unknown) => pieces(text).map((piece) => fechaFromText(piece, { time: false })?.slice(0, 10) ?? piece);

/** The rule the form holds, as the API takes it. */
function ruleOf(values: Record<string, unknown>): SeriesRule {
  return {
    desde: String(values.desde ?? ''),
    hasta: String(values.hasta ?? ''),
    dias: (values.dias as string[] | undefined) ?? [],
    horas: pieces(values.horas),
    excepto: exceptDates(values.excepto),
  };
}

/**
 * What the rule will create, before it does: the service's own rule (catalogue/series.ts) in the
 * service's zone, so a start in a spring-forward gap shows where the service will put it.
 */
const Preview = () => {
  const translate = useTranslate();
  const values = useWatch();
  const hora = useHora();
  if (hora === undefined) return null;
  if (!values.desde || !values.hasta || !(values.dias as string[] | undefined)?.length || pieces(values.horas).length === 0) {
    return <Typography variant="body2">{translate('cartelera.series.incomplete')}</Typography>;
  }
  const result = seriesStarts(ruleOf(values), hora.zona);
  if ('problems' in result) {
    return (
      <Box component="ul" role="status">
        {result.problems.map((p) => (
          <li key={p.sentence}>{p.sentence}</li>
        ))}
      </Box>
    );
  }
  const { starts } = result;
  return (
    <Box role="status">
      <Typography variant="body2">{translate('cartelera.series.preview', { smart_count: starts.length })}</Typography>
      <Box component="ul" aria-label={translate('cartelera.series.previewLabel')} sx={{ columns: { xs: 1, sm: 3 }, pl: 3 }}>
        {starts.slice(0, PREVIEWED).map((start) => (
          <li key={start}>{shownWallClock(start)}</li>
        ))}
      </Box>
      {starts.length > PREVIEWED && <Typography variant="body2">{translate('cartelera.series.more', { smart_count: starts.length - PREVIEWED })}</Typography>}
    </Box>
  );
};

/** A series of showtimes of one movie, work or event (reached from its Funciones): the rule, its preview, then all or nothing. */
export const SeriePage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = useDataProvider<CarteleraDataProvider>();
  const item = (useLocation().state ?? {}) as { tipo_evento?: string; evento_id?: number; titulo?: string };
  const back = `/${itemResourceOf(item.tipo_evento)}/${item.evento_id}/show`;
  async function save(values: Record<string, unknown>) {
    try {
      const created = await dataProvider.createSeries({
        ...ruleOf(values),
        tipo_evento: item.tipo_evento,
        evento_id: item.evento_id,
        lugar_id: values.lugar_id ?? null,
        estado: values.estado ?? null,
        notas: values.notas ?? null,
      });
      notify('cartelera.series.created', { type: 'success', messageArgs: { smart_count: created.length } });
      navigate(back);
    } catch (error) {
      const { body, message } = error as HttpError;
      // Field sentences go under their fields; the rest (an existing showtime) in a notification.
      if ((body as { errors?: Record<string, unknown> } | undefined)?.errors) return (body as { errors: Record<string, unknown> }).errors;
      notify(message, { type: 'error' });
    }
  }
  if (item.tipo_evento === undefined) return <Typography>{translate('cartelera.series.noItem')}</Typography>;
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate('cartelera.series.title', { titulo: item.titulo ?? '' })} />
      <CardContent>
        <Typography variant="h6" component="h2">
          {translate('cartelera.series.title', { titulo: item.titulo ?? '' })}
        </Typography>
        <Form resource="funciones" onSubmit={save} defaultValues={{ dias: [] }}>
          <LugarInput />
          <FechaInput source="desde" time={false} />
          <FechaInput source="hasta" time={false} />
          <CheckboxGroupInput source="dias" choices={diaChoices} />
          <TextInput source="horas" helperText="cartelera.series.horasHelp" fullWidth />
          <TextInput source="excepto" helperText="cartelera.series.exceptoHelp" fullWidth />
          <SelectInput source="estado" choices={estadoChoices} />
          <TextInput source="notas" fullWidth />
          <Preview />
          <SaveButton label="cartelera.series.create" alwaysEnable />
        </Form>
      </CardContent>
    </Card>
  );
};
