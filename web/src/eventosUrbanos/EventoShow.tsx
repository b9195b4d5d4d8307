import { DateField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { CategoriaField } from '../common/categoria';
import { ParticipantesField } from '../common/related';

export const EventoShow = () => (
  <Show queryOptions={{ meta: { embed: ['participaciones'] } }}>
    <SimpleShowLayout>
      <TextField source="titulo" />
      <TextField source="descripcion" />
      <DateField source="fecha" showTime />
      <TextField source="lugar" />
      <CategoriaField />
      <ParticipantesField tipo="eventoUrbano" label="resources.eventosUrbanos.fields.participaciones" />
    </SimpleShowLayout>
  </Show>
);
