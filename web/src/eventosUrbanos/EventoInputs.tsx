import { DateTimeInput, TextInput } from 'react-admin';
import { CategoriaInput } from '../common/categoria';
import { fechaFromInput, fechaInputValue } from '../common/fecha';

/** An urban event's fields, for creating and editing alike. */
export const EventoInputs = () => (
  <>
    <TextInput source="titulo" fullWidth />
    <TextInput source="descripcion" multiline minRows={3} fullWidth />
    <DateTimeInput source="fecha" format={fechaInputValue} parse={fechaFromInput} />
    <TextInput source="lugar" fullWidth />
    <CategoriaInput />
  </>
);
