import { useState } from 'react';
import { BooleanInput, NumberInput, TextInput, useTranslate } from 'react-admin';
import { TextField } from '@mui/material';
import { useFormContext } from 'react-hook-form';
import { coordinatesFromText } from './coordenadas';

/** Coordinates pasted as map sites copy them (`-34.6037, -58.3816`): they fill Latitud and Longitud. */
const PegarCoordenadas = () => {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const [text, setText] = useState('');
  const point = coordinatesFromText(text);
  return (
    <TextField
      name="coordenadas"
      label={translate('cartelera.lugares.paste')}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        const pasted = coordinatesFromText(event.target.value);
        if (pasted) {
          setValue('latitud', pasted.latitud, { shouldDirty: true });
          setValue('longitud', pasted.longitud, { shouldDirty: true });
        }
      }}
      error={text.trim() !== '' && !point}
      helperText={translate(text.trim() !== '' && !point ? 'cartelera.lugares.pasteInvalid' : 'cartelera.lugares.pasteHelp')}
      inputProps={{ autoComplete: 'off' }}
      size="small"
      margin="dense"
      fullWidth
    />
  );
};

/** A venue's fields, for creating and editing alike. */
export const LugarInputs = () => (
  <>
    <TextInput source="nombre" fullWidth />
    <TextInput source="direccion" fullWidth />
    <PegarCoordenadas />
    <NumberInput source="latitud" step={0.000001} />
    <NumberInput source="longitud" step={0.000001} />
    <BooleanInput source="accesible" />
    <TextInput source="url" type="url" fullWidth />
  </>
);
