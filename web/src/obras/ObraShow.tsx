import { ImagenesField, showsImages } from '../imagenes';
import { Historial } from '../changes/Historial';
import { NumberField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { CategoriaField } from '../common/categoria';
import { ParticipantesField } from '../common/related';
import { FuncionesField } from '../funciones/FuncionesField';

export const ObraShow = () => (
  <Show queryOptions={showsImages(['participaciones'])}>
    <SimpleShowLayout>
      <TextField source="titulo" />
      <TextField source="descripcion" />
      <NumberField source="duracion" />
      <CategoriaField source="categoria_id" />
      <ImagenesField label="cartelera.imagenes.title" />
      <ParticipantesField tipo="obra" label="resources.Obras.fields.participaciones" />
      <FuncionesField by="obra" label="cartelera.funciones.title" />
      <Historial label="cartelera.changes.history" />
    </SimpleShowLayout>
  </Show>
);
