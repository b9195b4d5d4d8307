import { useEffect, useState, type FormEvent } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { writeKey, type KeyRefusal } from '../dataProvider/writeKey';

interface Pending {
  refusal: KeyRefusal;
  resolve: (key: string | undefined) => void;
}

/** Asks for the write key when the service refuses a write with 401 or 403 (see dataProvider/writeKey). */
export const WriteKeyDialog = () => {
  const translate = useTranslate();
  const [pending, setPending] = useState<Pending>();
  const [key, setKey] = useState('');
  useEffect(
    () =>
      writeKey.setPrompt(
        (refusal) =>
          new Promise((resolve) => {
            setKey('');
            setPending({ refusal, resolve });
          }),
      ),
    [],
  );
  const close = (given: string | undefined) => {
    pending?.resolve(given);
    setPending(undefined);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim() !== '') close(key.trim());
  };
  return (
    <Dialog open={pending !== undefined} onClose={() => close(undefined)} aria-labelledby="write-key-title">
      <form onSubmit={submit}>
        <DialogTitle id="write-key-title">{translate('cartelera.writeKey.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate(`cartelera.writeKey.${pending?.refusal ?? 'missing'}`)}</DialogContentText>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            name="writeKey"
            type="password"
            autoComplete="off"
            label={translate('cartelera.writeKey.label')}
            value={key}
            onChange={(event) => setKey(event.target.value)}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => close(undefined)}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained">
            {translate('cartelera.writeKey.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
