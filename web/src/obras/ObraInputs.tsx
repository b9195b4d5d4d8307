import { NumberInput, TextInput } from 'react-admin';
import { CategoriaInput } from '../common/categoria';

/** A work's fields, for creating and editing alike. */
export const ObraInputs = () => (
  <>
    <TextInput source="titulo" fullWidth />
    <TextInput source="descripcion" multiline minRows={3} fullWidth />
    <NumberInput source="duracion" />
    <CategoriaInput />
  </>
);
