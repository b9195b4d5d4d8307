import { ImagenesField, showsImages } from '../imagenes';
import { Historial } from '../changes/Historial';
import { Show, SimpleShowLayout, TextField } from 'react-admin';
import { CategoriaField } from '../common/categoria';
import { ParticipantesField } from '../common/related';
import { FuncionesField } from '../funciones/FuncionesField';
import { PrimeraFuncion } from '../funciones/PrimeraFuncion';
import { FechaField } from './FechaField';

export const EventoShow = () => (
  <Show queryOptions={showsImages(['participaciones'])}>
    <SimpleShowLayout>
      <TextField source="titulo" />
      <TextField source="descripcion" />
      <FechaField source="fecha" />
      <TextField source="lugar" />
      <CategoriaField source="categoria_id" />
      <ImagenesField label="cartelera.imagenes.title" />
      <ParticipantesField tipo="eventoUrbano" label="resources.eventosUrbanos.fields.participaciones" />
      <PrimeraFuncion />
      <FuncionesField by="eventoUrbano" label="cartelera.funciones.title" />
      <Historial label="cartelera.changes.history" />
    </SimpleShowLayout>
  </Show>
);
