import { Historial } from '../changes/Historial';
import { NumberField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { CareerField } from '../common/related';

export const ArtistaShow = () => (
  <Show queryOptions={{ meta: { embed: ['participaciones'] } }}>
    <SimpleShowLayout>
      <NumberField source="dni" options={{ useGrouping: false }} />
      <TextField source="nombre" />
      <TextField source="apellido" />
      <TextField source="tipo" />
      <TextField source="descripcion" />
      <CareerField label="resources.artistas.fields.participaciones" />
      <Historial label="cartelera.changes.history" />
    </SimpleShowLayout>
  </Show>
);
