import { Box, Button, LinearProgress, Stack, TextField, Typography } from '@mui/material';
import { useState, type DragEvent } from 'react';
import { useDataProvider, useTranslate, type Identifier } from 'react-admin';
import type { CarteleraDataProvider } from '../dataProvider';
import { TIPOS_IMAGEN } from '../../../src/catalogue/imageTypes';
import { FilePicker } from '../common/FilePicker';

interface Pending {
  key: number;
  file: File;
  alt: string;
  credito: string;
  /** 0 to 1 while its bytes go out. */
  progress?: number;
  /** The service's refusal, or the missing alt text. */
  error?: string;
}

let counter = 0;

/**
 * Where pictures are added to a record: chosen (several at once) or dropped on the zone, each
 * with its alt text (required) and credit, then uploaded one after the other, in the order chosen,
 * each with its own progress bar (at 0 while it waits its turn). A refused file stays, with the service's sentence under it.
 */
export const UploadZone = ({ recurso, clave, onUploaded }: { recurso: string; clave: Identifier; onUploaded: () => void }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<CarteleraDataProvider>();
  const [pending, setPending] = useState<Pending[]>([]);
  const [over, setOver] = useState(false);
  const [busy, setBusy] = useState(false);
  const add = (files: Iterable<File>) => setPending((now) => [...now, ...Array.from(files, (file) => ({ key: ++counter, file, alt: '', credito: '' }))]);
  const change = (key: number, changes: Partial<Pending>) => setPending((now) => now.map((p) => (p.key === key ? { ...p, ...changes } : p)));

  function drop(event: DragEvent) {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    setOver(false);
    add(event.dataTransfer.files);
  }

  async function upload() {
    const missing = pending.filter((p) => p.alt.trim() === '');
    if (missing.length > 0) {
      for (const p of missing) change(p.key, { error: translate('cartelera.imagenes.altRequired') });
      return;
    }
    setBusy(true);
    // Every file shows its bar from the start: those still waiting their turn at 0.
    for (const p of pending) change(p.key, { progress: 0, error: undefined });
    for (const p of pending) {
      try {
        await dataProvider.uploadImage({ recurso, clave, alt: p.alt, credito: p.credito }, p.file, (progress) => change(p.key, { progress }));
        setPending((now) => now.filter((q) => q.key !== p.key));
        onUploaded();
      } catch (error) {
        change(p.key, { progress: undefined, error: error instanceof Error ? translate(error.message, { _: error.message }) : String(error) });
      }
    }
    setBusy(false);
  }

  return (
    <Box>
      <Box
        onDragOver={(event) => {
          if (!event.dataTransfer.types.includes('Files')) return;
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        data-testid="zona-imagenes"
        sx={{ border: 2, borderStyle: 'dashed', borderColor: over ? 'primary.main' : 'divider', borderRadius: 1, p: 2, textAlign: 'center' }}
      >
        <Typography variant="body2" gutterBottom>
          {translate('cartelera.imagenes.drop')}
        </Typography>
        <FilePicker label={translate('cartelera.imagenes.choose')} name="imagenes" accept={TIPOS_IMAGEN} onFiles={add} />
      </Box>
      {pending.length > 0 && (
        <Stack component="ol" spacing={2} sx={{ listStyle: 'none', p: 0, mt: 2 }} aria-label={translate('cartelera.imagenes.pending')}>
          {pending.map((p, index) => (
            <Box component="li" key={p.key} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
              <Typography variant="subtitle2" component="p" sx={{ wordBreak: 'break-all' }}>
                {p.file.name}
              </Typography>
              <TextField
                label={translate('resources.imagenes.fields.alt')}
                value={p.alt}
                onChange={(event) => change(p.key, { alt: event.target.value, error: undefined })}
                required
                fullWidth
                multiline
                margin="dense"
                inputProps={{ maxLength: 500, name: `alt-${index + 1}` }}
                error={p.error !== undefined}
                helperText={p.error ?? translate('cartelera.imagenes.altHelp')}
              />
              <TextField
                label={translate('resources.imagenes.fields.credito')}
                value={p.credito}
                onChange={(event) => change(p.key, { credito: event.target.value })}
                fullWidth
                margin="dense"
                inputProps={{ maxLength: 255, name: `credito-${index + 1}` }}
                helperText={translate('cartelera.imagenes.creditoHelp')}
              />
              {p.progress !== undefined && (
                <LinearProgress
                  variant="determinate"
                  value={Math.round(p.progress * 100)}
                  aria-label={translate('cartelera.imagenes.uploading', { name: p.file.name })}
                  sx={{ mt: 1 }}
                />
              )}
              <Button size="small" disabled={busy} onClick={() => setPending((now) => now.filter((q) => q.key !== p.key))}>
                {translate('cartelera.imagenes.discard')}
              </Button>
            </Box>
          ))}
        </Stack>
      )}
      {pending.length > 0 && (
        <Button variant="contained" disabled={busy} onClick={() => void upload()} sx={{ mt: 1 }}>
          {translate('cartelera.imagenes.upload', { smart_count: pending.length })}
        </Button>
      )}
    </Box>
  );
};
