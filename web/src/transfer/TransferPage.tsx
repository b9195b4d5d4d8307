import DownloadIcon from '@mui/icons-material/Download';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { useState, type ChangeEvent } from 'react';
import { HttpError, Title, useNotify, useTranslate } from 'react-admin';
import { EXISTENTES, type Existentes, type ImportReport } from '../../../src/api/transferSchemas';
import { HeadRow } from '../common/HeadRow';
import { request } from '../dataProvider/http';

type Outcome = { checked: boolean; report: ImportReport };

/**
 * Import and export for staff: pick a workbook or CSV files, check them ("Comprobar": every
 * problem with its row, column and value, and what would be stored), import them all or nothing,
 * and download the whole catalogue as a workbook. The service does the work (POST /importar,
 * GET /exportar.xlsx), with the same engines as the command line.
 */
export const TransferPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const [files, setFiles] = useState<File[]>([]);
  const [existentes, setExistentes] = useState<Existentes>('error');
  const [working, setWorking] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();

  async function send(checked: boolean) {
    const form = new FormData();
    for (const file of files) form.append('archivo', file, file.name);
    setWorking(true);
    setOutcome(undefined);
    try {
      const answer = await request('POST', `/importar?comprobar=${checked}&existentes=${existentes}`, { body: form });
      setOutcome({ checked, report: answer.json as ImportReport });
    } catch (error) {
      // An import with problems is refused with its report; anything else is a notification.
      const report = error instanceof HttpError ? (error.body as Partial<ImportReport> | undefined) : undefined;
      if (report?.problemas) setOutcome({ checked, report: report as ImportReport });
      else notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setWorking(false);
    }
  }

  const t = (key: string, options?: Record<string, unknown>) => translate(`cartelera.transfer.${key}`, options);
  return (
    <Stack spacing={2} sx={{ mt: 2, mb: 4 }}>
      <Title title={t('title')} />
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('importTitle')}
          </Typography>
          <Typography variant="body2" color="text.secondary" gutterBottom>
            {t('importHelp')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 2 }} alignItems={{ sm: 'center' }}>
            <Button variant="outlined" component="label" startIcon={<UploadFileIcon />}>
              {t('files')}
              <input
                hidden
                type="file"
                name="archivo"
                multiple
                accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
                onChange={(event: ChangeEvent<HTMLInputElement>) => {
                  setFiles([...(event.target.files ?? [])]);
                  setOutcome(undefined);
                }}
              />
            </Button>
            <Typography variant="body2" data-testid="archivos-elegidos">
              {files.length > 0 ? files.map((f) => f.name).join(', ') : t('noFiles')}
            </Typography>
          </Stack>
          <FormControl size="small" sx={{ mt: 2, width: { xs: '100%', sm: 360 } }}>
            <InputLabel id="existentes-label">{t('existing')}</InputLabel>
            <Select labelId="existentes-label" label={t('existing')} value={existentes} onChange={(event) => setExistentes(event.target.value as Existentes)}>
              {EXISTENTES.map((choice) => (
                <MenuItem key={choice} value={choice}>
                  {t(`existingChoices.${choice}`)}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
            <Button variant="outlined" startIcon={<FactCheckIcon />} disabled={files.length === 0 || working} onClick={() => send(true)}>
              {t('check')}
            </Button>
            <Button variant="contained" startIcon={<UploadFileIcon />} disabled={files.length === 0 || working} onClick={() => send(false)}>
              {t('import')}
            </Button>
          </Stack>
          {working && <Typography sx={{ mt: 2 }}>{t('working')}</Typography>}
          {outcome && <Report outcome={outcome} t={t} />}
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('exportTitle')}
          </Typography>
          <Typography variant="body2" color="text.secondary" gutterBottom>
            {t('exportHelp')}
          </Typography>
          <Button variant="contained" href="/exportar.xlsx" download startIcon={<DownloadIcon />} sx={{ mt: 1 }}>
            {t('exportAll')}
          </Button>
        </CardContent>
      </Card>
    </Stack>
  );
};

/** What the service answered: its problems, row by row, or what was (or would be) stored. */
const Report = ({ outcome: { checked, report }, t }: { outcome: Outcome; t: (key: string, options?: Record<string, unknown>) => string }) => {
  const translate = useTranslate();
  const label = (resource?: string, field?: string) =>
    resource && field ? translate(`resources.${resource}.fields.${field}`, { _: field }) : (field ?? '');
  const resourceName = (resource: string) => translate(`resources.${resource}.name`, { smart_count: 2, _: resource });
  const c = (key: string) => t(`columns.${key}`);
  return (
    <Box sx={{ mt: 3 }} data-testid="informe">
      {report.avisos.length > 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {report.avisos.map((a) => `${a.archivo}: ${a.aviso}`).join(' ')}
        </Alert>
      )}
      {report.problemas.length > 0 ? (
        <>
          <Alert severity="error" sx={{ mb: 2 }}>
            {t('problems', { smart_count: report.problemas.length })}
          </Alert>
          <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label={c('sentence')}>
            <HeadRow titles={['file', 'sheet', 'row', 'field', 'value', 'sentence'].map(c)} />
            <TableBody>
              {report.problemas.map((p, i) => (
                <TableRow key={i}>
                  <TableCell>{p.archivo}</TableCell>
                  <TableCell>{p.hoja ?? ''}</TableCell>
                  <TableCell>{p.fila ?? ''}</TableCell>
                  <TableCell>{label(p.recurso, p.campo)}</TableCell>
                  <TableCell>{p.valor ?? ''}</TableCell>
                  <TableCell>{p.frase}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          </Box>
        </>
      ) : (
        <>
          <Alert severity="success" sx={{ mb: 2 }}>
            {checked ? t('checkedOk') : t('stored')}
          </Alert>
          <Table size="small" aria-label={c('resource')}>
            <HeadRow titles={['resource', 'created', 'updated', 'unchanged'].map(c)} />
            <TableBody>
              {Object.entries(report.recuentos).map(([resource, counts]) => (
                <TableRow key={resource}>
                  <TableCell>{resourceName(resource)}</TableCell>
                  <TableCell>{counts.nuevos}</TableCell>
                  <TableCell>{counts.actualizados}</TableCell>
                  <TableCell>{counts.sin_cambios}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </Box>
  );
};
