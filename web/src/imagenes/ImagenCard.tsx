import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useState, type HTMLAttributes, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslate, type RaRecord } from 'react-admin';
import { CROPS, movedFocus, objectPosition } from './focus';

/** What a card asks of its section: every change goes to the service, which answers the image as stored. */
export interface ImageActions {
  save(image: RaRecord, changes: Record<string, unknown>): Promise<void>;
  remove(image: RaRecord): Promise<void>;
}

interface Props {
  image: RaRecord;
  total: number;
  actions: ImageActions;
  /** Dragging the card onto another moves it there. */
  drag: HTMLAttributes<HTMLLIElement>;
}

/** The picture the editor shows (the previews crop the same one): a rendition, never the original. */
export const editorSource = (image: RaRecord) => `${String(image.url)}?ancho=480&ajuste=contener`;

/**
 * One image of a record: its picture, where a click (or the arrow keys, 5 % a press, 1 % with
 * Shift) puts the focal point; the 16:9, 1:1 and 2:3 crops as the renditions will cut them; its
 * texts; and its place (Subir, Bajar, or dragging it onto another).
 */
export const ImagenCard = ({ image, total, actions, drag }: Props) => {
  const translate = useTranslate();
  const [focus, setFocus] = useState({ foco_x: Number(image.foco_x), foco_y: Number(image.foco_y) });
  const [alt, setAlt] = useState(String(image.alt));
  const [credito, setCredito] = useState(String(image.credito ?? ''));
  const orden = Number(image.orden);
  const picture = { ancho: Number(image.ancho), alto: Number(image.alto), ...focus };
  const source = editorSource(image);

  function putFocus(next: { foco_x: number; foco_y: number }) {
    setFocus(next);
    void actions.save(image, next);
  }
  function click(event: MouseEvent<HTMLElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    const at = (offset: number, size: number) => Math.min(100, Math.max(0, Math.round((offset / size) * 100)));
    putFocus({ foco_x: at(event.clientX - box.left, box.width), foco_y: at(event.clientY - box.top, box.height) });
  }
  function key(event: KeyboardEvent<HTMLElement>) {
    const next = movedFocus(event.key, focus, event.shiftKey ? 1 : 5);
    if (!next) return;
    event.preventDefault();
    putFocus(next);
  }
  const label = translate('cartelera.imagenes.number', { orden, total });

  return (
    <Box component="li" aria-label={label} {...drag} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
      <Typography variant="subtitle2" component="h3" gutterBottom>
        {label}
        {orden === 1 && ` · ${translate('cartelera.imagenes.poster')}`}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <Box>
          <Box
            component="button"
            type="button"
            onClick={click}
            onKeyDown={key}
            aria-label={translate('cartelera.imagenes.focus', { x: focus.foco_x, y: focus.foco_y })}
            data-foco={`${focus.foco_x},${focus.foco_y}`}
            sx={{ position: 'relative', display: 'block', p: 0, border: 0, cursor: 'crosshair', lineHeight: 0, maxWidth: '100%', '&:focus-visible': { outline: 3, outlineColor: 'primary.main' } }}
          >
            {/* Its size from the record: the box is the picture's before the file arrives, so a click lands where it was aimed. */}
            <img src={source} alt={alt} width={picture.ancho} height={picture.alto} style={{ maxWidth: '100%', width: 320, height: 'auto', display: 'block' }} />
            <Box
              aria-hidden
              sx={{
                position: 'absolute',
                left: `${focus.foco_x}%`,
                top: `${focus.foco_y}%`,
                width: 20,
                height: 20,
                transform: 'translate(-50%, -50%)',
                borderRadius: '50%',
                border: '3px solid #fff',
                boxShadow: '0 0 0 2px #000',
              }}
            />
          </Box>
          <Typography variant="caption" color="text.secondary">
            {translate('cartelera.imagenes.focusHelp')}
          </Typography>
        </Box>
        <Box>
          <Typography variant="body2" component="p">
            {translate('cartelera.imagenes.crops')}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
            {CROPS.map((crop) => (
              <Box key={crop.name} component="figure" sx={{ m: 0 }}>
                <Box
                  component="img"
                  src={source}
                  alt=""
                  data-recorte={crop.name}
                  sx={{ height: 72, width: 72 * crop.ratio, objectFit: 'cover', objectPosition: objectPosition(picture, crop.ratio), display: 'block' }}
                />
                <Typography component="figcaption" variant="caption">
                  {crop.name}
                </Typography>
              </Box>
            ))}
          </Stack>
        </Box>
      </Stack>
      <TextField
        label={translate('resources.imagenes.fields.alt')}
        value={alt}
        onChange={(event) => setAlt(event.target.value)}
        required
        fullWidth
        multiline
        margin="dense"
        inputProps={{ maxLength: 500 }}
        error={alt.trim() === ''}
        helperText={alt.trim() === '' ? translate('cartelera.imagenes.altRequired') : translate('cartelera.imagenes.altHelp')}
      />
      <TextField
        label={translate('resources.imagenes.fields.credito')}
        value={credito}
        onChange={(event) => setCredito(event.target.value)}
        fullWidth
        margin="dense"
        inputProps={{ maxLength: 255 }}
      />
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mt: 1 }}>
        <Button size="small" variant="outlined" disabled={alt.trim() === ''} onClick={() => void actions.save(image, { alt, credito })}>
          {translate('cartelera.imagenes.saveTexts')}
        </Button>
        <Button size="small" startIcon={<ArrowUpwardIcon />} disabled={orden === 1} onClick={() => void actions.save(image, { orden: orden - 1 })} aria-label={translate('cartelera.imagenes.upOf', { orden })}>
          {translate('cartelera.imagenes.up')}
        </Button>
        <Button size="small" startIcon={<ArrowDownwardIcon />} disabled={orden === total} onClick={() => void actions.save(image, { orden: orden + 1 })} aria-label={translate('cartelera.imagenes.downOf', { orden })}>
          {translate('cartelera.imagenes.down')}
        </Button>
        <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={() => void actions.remove(image)} aria-label={translate('cartelera.imagenes.deleteOf', { orden })}>
          {translate('cartelera.imagenes.delete')}
        </Button>
      </Stack>
    </Box>
  );
};
