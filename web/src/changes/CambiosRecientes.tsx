import { Card, CardContent, FormControl, InputLabel, MenuItem, Select, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { Title, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { resourceLabels } from '../../../src/catalogue/labels';
import { Rows } from '../common/Rows';
import { request } from '../dataProvider/http';
import { recordPath, useChangeText, type Change } from './changeText';

/** How many changes the page keeps on screen, newest first. */
const SHOWN = 50;

/**
 * Cambios recientes (#/cambios): the latest changes of the whole catalogue, kept up to date from
 * the live feed (GET /cambios as Server-Sent Events, which resumes by itself from its last id),
 * filtered by resource and by person.
 */
export const CambiosRecientes = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const text = useChangeText();
  const [recurso, setRecurso] = useState('');
  const [quien, setQuien] = useState('');
  const [changes, setChanges] = useState<Change[]>([]);

  useEffect(() => {
    const filter = new URLSearchParams();
    if (recurso) filter.set('recurso', recurso);
    if (quien.trim()) filter.set('quien', quien.trim());
    let feed: EventSource | undefined;
    let cancelled = false;
    (async () => {
      const latest = (await request('GET', `/cambios?${filter}&_sort=-id&_limit=${SHOWN}`)).json as Change[];
      if (cancelled) return;
      setChanges(latest);
      const from = new URLSearchParams(filter);
      from.set('desde', String(latest[0]?.id ?? 0));
      feed = new EventSource(`/cambios?${from}`);
      feed.addEventListener('cambio', (event) => {
        const change = JSON.parse((event as MessageEvent<string>).data) as Change;
        setChanges((shown) => [change, ...shown.filter((c) => c.id !== change.id)].slice(0, SHOWN));
      });
    })().catch((error: unknown) => notify(error instanceof Error ? error.message : String(error), { type: 'error' }));
    return () => {
      cancelled = true;
      feed?.close();
    };
  }, [recurso, quien, notify]);

  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate('cartelera.changes.recent')} />
      <CardContent>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {translate('cartelera.changes.recentHelp')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ my: 2 }}>
          <FormControl size="small" sx={{ width: { xs: '100%', sm: 240 } }}>
            <InputLabel id="recurso-label">{translate('cartelera.changes.columns.resource')}</InputLabel>
            <Select labelId="recurso-label" name="recurso" label={translate('cartelera.changes.columns.resource')} value={recurso} onChange={(e) => setRecurso(e.target.value)}>
              <MenuItem value="">{translate('cartelera.changes.all')}</MenuItem>
              {Object.entries(resourceLabels).map(([name, [, many]]) => (
                <MenuItem key={name} value={name}>
                  {many}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <TextField size="small" name="quien" label={translate('cartelera.changes.columns.who')} value={quien} onChange={(e) => setQuien(e.target.value)} sx={{ width: { xs: '100%', sm: 240 } }} />
        </Stack>
        <Rows<Change>
          label={translate('cartelera.changes.recent')}
          rows={changes}
          rowKey={(change) => change.id}
          columns={[
            ...(['when', 'who', 'resource'] as const).map((column) => ({ title: translate(`cartelera.changes.columns.${column}`), cell: text[column] })),
            {
              title: translate('cartelera.changes.columns.what'),
              cell: (change) => (
                <Stack>
                  <span>
                    <strong>{text.operation(change)}</strong>{' '}
                    {change.operacion === 'baja' ? text.title(change) : <Link to={recordPath(change)}>{text.title(change)}</Link>}
                  </span>
                  {change.operacion === 'modificacion' && text.fields(change).map((line) => <span key={line}>{line}</span>)}
                </Stack>
              ),
            },
          ]}
        />
      </CardContent>
    </Card>
  );
};
