import { ImagenesField, showsImages } from '../imagenes';
import { Historial } from '../changes/Historial';
import { NumberField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { CategoriaField } from '../common/categoria';
import { ParticipantesField } from '../common/related';
import { FuncionesField } from '../funciones/FuncionesField';

export const PeliculaShow = () => (
  <Show queryOptions={showsImages(['participaciones'])}>
    <SimpleShowLayout>
      <TextField source="titulo" />
      <TextField source="sipnosis" />
      <NumberField source="duracion" />
      <CategoriaField source="categoria_id" />
      <ImagenesField label="cartelera.imagenes.title" />
      <ParticipantesField tipo="pelicula" label="resources.peliculas.fields.participaciones" />
      <FuncionesField by="pelicula" label="cartelera.funciones.title" />
      <Historial label="cartelera.changes.history" />
    </SimpleShowLayout>
  </Show>
);
