import { TextInput } from 'react-admin';
import { CategoriaInput } from '../common/categoria';
import { FechaInput } from '../common/FechaInput';

/** An urban event's fields, for creating and editing alike. */
export const EventoInputs = () => (
  <>
    <TextInput source="titulo" fullWidth />
    <TextInput source="descripcion" multiline minRows={3} fullWidth />
    <FechaInput source="fecha" />
    <TextInput source="lugar" fullWidth />
    <CategoriaInput />
  </>
);
