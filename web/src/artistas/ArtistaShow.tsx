import { ImagenesField, showsImages } from '../imagenes';
import { Historial } from '../changes/Historial';
import { NumberField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { CareerField } from '../common/related';

export const ArtistaShow = () => (
  <Show queryOptions={showsImages(['participaciones'])}>
    <SimpleShowLayout>
      <NumberField source="dni" options={{ useGrouping: false }} />
      <TextField source="nombre" />
      <TextField source="apellido" />
      <TextField source="tipo" />
      <TextField source="descripcion" />
      <ImagenesField label="cartelera.imagenes.title" />
      <CareerField label="resources.artistas.fields.participaciones" />
      <Historial label="cartelera.changes.history" />
    </SimpleShowLayout>
  </Show>
);
