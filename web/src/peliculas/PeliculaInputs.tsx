import { NumberInput, TextInput } from 'react-admin';
import { CategoriaInput } from '../common/categoria';

/** A movie's fields, for creating and editing alike. */
export const PeliculaInputs = () => (
  <>
    <TextInput source="titulo" fullWidth />
    <TextInput source="sipnosis" multiline minRows={3} fullWidth />
    <NumberInput source="duracion" />
    <CategoriaInput />
  </>
);
