import { DateTimeInput, TextInput } from 'react-admin';
import { CategoriaInput } from '../common/categoria';

/** The browser's local date-time, sent as an instant (the service keeps instants, answered in UTC). */
const toInstant = (value: string) => (value ? new Date(value).toISOString() : null);

/** An urban event's fields, for creating and editing alike. */
export const EventoInputs = () => (
  <>
    <TextInput source="titulo" fullWidth />
    <TextInput source="descripcion" multiline minRows={3} fullWidth />
    <DateTimeInput source="fecha" parse={toInstant} />
    <TextInput source="lugar" fullWidth />
    <CategoriaInput />
  </>
);
