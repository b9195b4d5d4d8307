import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useRef, useState, type HTMLAttributes, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslate, type RaRecord } from 'react-admin';
import { CROPS, movedFocus, objectPosition, type Focus } from './focus';
import { useBurstWrite } from './useBurstWrite';
import { CARD } from './useDragOrder';

/** What a card asks of its section: every change goes to the service, which answers the image as stored. */
export interface ImageActions {
  save(image: RaRecord, changes: Record<string, unknown>): Promise<void>;
  remove(image: RaRecord): Promise<void>;
}

interface Props {
  image: RaRecord;
  total: number;
  actions: ImageActions;
  /** The handle's pointer events: dragging it onto another card moves the image there. */
  handle: HTMLAttributes<HTMLElement>;
  /** While a card is dragged: this one is it, or the one it would go to. */
  dragging?: 'moving' | 'over';
}

/** How long the focal point rests before it is written: a burst of arrow presses, or a drag, is one change. */
const PAUSE = 800;

/** The picture the editor shows (the previews crop the same one): a rendition, never the original. */
export const editorSource = (image: RaRecord) => `${String(image.url)}?ancho=480&ajuste=contener`;

/**
 * One image of a record: its picture, where a click or a drag of the pointer (or the arrow keys, 5 %
 * a press, 1 % with Shift) puts the focal point; the 16:9, 1:1 and 2:3 crops as the renditions will
 * cut them, following the point as it moves; its texts; and its place (Subir, Bajar, or dragging
 * its handle onto another). The point is written once it rests, or at once when the picture loses
 * the focus, the section goes or the page is closed: a burst of moves is one change in the log, one
 * step to undo.
 */
export const ImagenCard = ({ image, total, actions, handle, dragging }: Props) => {
  const translate = useTranslate();
  const [focus, setFocus] = useState<Focus>({ foco_x: Number(image.foco_x), foco_y: Number(image.foco_y) });
  const [alt, setAlt] = useState(String(image.alt));
  const [credito, setCredito] = useState(String(image.credito ?? ''));
  const orden = Number(image.orden);
  const picture = { ancho: Number(image.ancho), alto: Number(image.alto), ...focus };
  const source = editorSource(image);

  // The point the service holds: a burst that ends where it began writes nothing.
  const stored = useRef(focus);
  const write = useBurstWrite((next: Focus) => {
    if (next.foco_x === stored.current.foco_x && next.foco_y === stored.current.foco_y) return;
    stored.current = next;
    void actions.save(image, next);
  }, PAUSE);
  // The pointer pressed on the picture, and the point before it: a press the browser takes back (a finger that scrolls) puts it back.
  const press = useRef<{ pointer: number; before: Focus }>(undefined);

  function pointAt(event: PointerEvent<HTMLElement>): Focus {
    const box = event.currentTarget.getBoundingClientRect();
    const at = (offset: number, size: number) => Math.min(100, Math.max(0, Math.round((offset / size) * 100)));
    return { foco_x: at(event.clientX - box.left, box.width), foco_y: at(event.clientY - box.top, box.height) };
  }
  const pointer: HTMLAttributes<HTMLElement> = {
    onPointerDown(event) {
      if (event.button !== 0 || press.current) return;
      event.currentTarget.setPointerCapture(event.pointerId);
      press.current = { pointer: event.pointerId, before: focus };
      write.hold();
      setFocus(pointAt(event));
    },
    onPointerMove(event) {
      if (press.current?.pointer === event.pointerId) setFocus(pointAt(event));
    },
    onPointerUp(event) {
      if (press.current?.pointer !== event.pointerId) return;
      press.current = undefined;
      const next = pointAt(event);
      setFocus(next);
      write.later(next);
    },
    onPointerCancel(event) {
      if (press.current?.pointer !== event.pointerId) return;
      const { before } = press.current;
      press.current = undefined;
      setFocus(before);
      write.later(before);
    },
  };
  function key(event: KeyboardEvent<HTMLElement>) {
    const next = movedFocus(event.key, focus, event.shiftKey ? 1 : 5);
    if (!next) return;
    event.preventDefault();
    setFocus(next);
    write.later(next);
  }
  const label = translate('cartelera.imagenes.number', { orden, total });

  return (
    <Box
      component="li"
      aria-label={label}
      {...{ [CARD]: String(image.id) }}
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        p: 2,
        opacity: dragging === 'moving' ? 0.6 : 1,
        outline: dragging === 'over' ? 3 : 0,
        outlineStyle: 'dashed',
        outlineColor: 'primary.main',
      }}
    >
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle2" component="h3">
          {label}
          {orden === 1 && ` · ${translate('cartelera.imagenes.poster')}`}
        </Typography>
        {/* For a pointer only (a mouse, a pen, a finger): the keyboard has Subir and Bajar. */}
        <Box
          component="span"
          {...handle}
          data-asa
          sx={{
            display: 'inline-flex',
            alignItems: 'center',
            gap: 0.5,
            minHeight: 40,
            px: 1,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            cursor: dragging === 'moving' ? 'grabbing' : 'grab',
            touchAction: 'none',
            userSelect: 'none',
          }}
        >
          <DragIndicatorIcon fontSize="small" aria-hidden />
          <Typography variant="body2" component="span">
            {translate('cartelera.imagenes.move')}
          </Typography>
        </Box>
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <Box>
          <Box
            component="button"
            type="button"
            {...pointer}
            onKeyDown={key}
            onBlur={write.now}
            aria-label={translate('cartelera.imagenes.focus', { x: focus.foco_x, y: focus.foco_y })}
            data-foco={`${focus.foco_x},${focus.foco_y}`}
            sx={{ position: 'relative', display: 'block', p: 0, border: 0, cursor: 'crosshair', lineHeight: 0, maxWidth: '100%', '&:focus-visible': { outline: 3, outlineColor: 'primary.main' } }}
          >
            {/* Its size from the record: the box is the picture's before the file arrives, so a click lands where it was aimed. */}
            <img src={source} alt={alt} width={picture.ancho} height={picture.alto} draggable={false} style={{ maxWidth: '100%', width: 320, height: 'auto', display: 'block' }} />
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
        helperText={translate('cartelera.imagenes.creditoHelp')}
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
