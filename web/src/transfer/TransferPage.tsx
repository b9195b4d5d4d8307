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
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { HttpError, Title, useTranslate } from 'react-admin';
import { EXISTENTES, type Existentes, type ImportReport } from '../../../src/api/transferSchemas';
import { ExportChoices } from '../common/ExportButton';
import { Rows } from '../common/Rows';
import { exportUrl } from '../dataProvider';
import { request } from '../dataProvider/http';
import { FilePicker } from '../common/FilePicker';

/** What the import reads: workbooks and CSV files, by extension and by type. */
const SPREADSHEETS = ['.xlsx', '.ods', '.csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.oasis.opendocument.spreadsheet', 'text/csv'];

type Problem = ImportReport['problemas'][number] & {
  /** The column's label as the sheet heads it. */
  columna?: string;
};
type Report = Omit<ImportReport, 'problemas' | 'avisos'> & {
  problemas: Problem[];
  /** Problems past those listed: counted, not listed. */
  problemas_sin_listar?: number;
  avisos: { archivo: string; hoja?: string; aviso: string }[];
};
type Outcome = { checked: boolean; report: Report };

/** "1,4 MB": a file's size as staff read it. */
function megabytes(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return mb < 0.1 ? '< 0,1 MB' : `${mb.toLocaleString('es-AR', { maximumFractionDigits: 1 })} MB`;
}

/**
 * Import and export for staff: pick a workbook or CSV files, check them ("Comprobar": every
 * problem with its row, column and value, and what would be stored), import them all or nothing,
 * and download the whole catalogue as a workbook. The service does the work (POST /importar,
 * GET /exportar.xlsx), with the same engines as the command line. Every answer, a file the
 * service could not read included, is a report that stays on the page until the next one.
 */
export const TransferPage = () => {
  const translate = useTranslate();
  const [files, setFiles] = useState<File[]>([]);
  const [existentes, setExistentes] = useState<Existentes>('error');
  const [working, setWorking] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();

  async function send(checked: boolean) {
    const form = new FormData();
    for (const file of files) form.append('archivo', file, file.name);
    setWorking(true);
    let report: Report;
    try {
      report = (await request('POST', `/importar?comprobar=${checked}&existentes=${existentes}`, { body: form })).json as Report;
    } catch (error) {
      // Refused with its report (problems in rows, or with a file as a whole), or else for a reason that concerns them all.
      const body = error instanceof HttpError ? (error.body as Partial<Report> | undefined) : undefined;
      const problemas = body?.problemas ?? [{ archivo: files.map((f) => f.name).join(', '), frase: error instanceof Error ? translate(error.message) : String(error) }];
      report = { guardado: false, avisos: [], recuentos: {}, ...body, problemas };
    } finally {
      setWorking(false);
    }
    setOutcome({ checked, report });
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
            <FilePicker label={t('files')} name="archivo" accept={SPREADSHEETS} onFiles={setFiles} />
            <Typography variant="body2" data-testid="archivos-elegidos">
              {files.length > 0 ? files.map((f) => `${f.name} (${megabytes(f.size)})`).join(', ') : t('noFiles')}
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
          {outcome && <ReportView outcome={outcome} t={t} />}
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
          <Box sx={{ mt: 1 }}>
            <ExportChoices label="cartelera.transfer.exportAll" href={(format) => exportUrl(format)} formats={['xlsx', 'ods']} variant="contained" />
          </Box>
        </CardContent>
      </Card>
    </Stack>
  );
};

/** What the service answered: its problems, each with its file, sheet, row and column, or what was (or would be) stored. */
const ReportView = ({ outcome: { checked, report }, t }: { outcome: Outcome; t: (key: string, options?: Record<string, unknown>) => string }) => {
  const translate = useTranslate();
  const label = (p: Problem) => p.columna ?? (p.recurso && p.campo ? translate(`resources.${p.recurso}.fields.${p.campo}`, { _: p.campo }) : (p.campo ?? ''));
  const resourceName = (resource: string) => translate(`resources.${resource}.name`, { smart_count: 2, _: resource });
  const c = (key: string) => t(`columns.${key}`);
  const unlisted = report.problemas_sin_listar ?? 0;
  return (
    <Box sx={{ mt: 3 }} data-testid="informe">
      {report.avisos.length > 0 && (
        <Alert severity="info" sx={{ mb: 2 }} aria-label={t('notices')}>
          {report.avisos.map((a, i) => (
            <div key={i}>{`${[a.archivo, a.hoja].filter(Boolean).join(', ')}: ${a.aviso}`}</div>
          ))}
        </Alert>
      )}
      {report.problemas.length > 0 ? (
        <>
          <Alert severity="error" sx={{ mb: 2 }}>
            {t('problems', { smart_count: report.problemas.length + unlisted })}
            {unlisted > 0 && ` ${t('unlisted', { listed: report.problemas.length.toLocaleString('es-AR') })}`}
          </Alert>
          <Rows<Problem>
            label={c('sentence')}
            rows={report.problemas}
            rowKey={(p) => report.problemas.indexOf(p)}
            columns={[
              { title: c('file'), cell: (p) => p.archivo },
              { title: c('sheet'), cell: (p) => p.hoja },
              { title: c('row'), cell: (p) => p.fila },
              { title: c('field'), cell: label },
              { title: c('value'), cell: (p) => p.valor },
              { title: c('sentence'), cell: (p) => p.frase },
            ]}
          />
        </>
      ) : (
        <>
          <Alert severity="success" sx={{ mb: 2 }}>
            {checked ? t('checkedOk') : t('stored')}
          </Alert>
          <Rows<[string, Report['recuentos'][string]]>
            label={c('resource')}
            rows={Object.entries(report.recuentos)}
            rowKey={([resource]) => resource}
            columns={[
              { title: c('resource'), cell: ([resource]) => resourceName(resource) },
              { title: c('created'), cell: ([, counts]) => counts.nuevos },
              { title: c('updated'), cell: ([, counts]) => counts.actualizados },
              { title: c('unchanged'), cell: ([, counts]) => counts.sin_cambios },
            ]}
          />
        </>
      )}
    </Box>
  );
};
