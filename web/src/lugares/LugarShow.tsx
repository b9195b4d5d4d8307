import { ImagenesField, showsImages } from '../imagenes';
import { BooleanField, Show, SimpleShowLayout, TextField, UrlField } from 'react-admin';
import { Historial } from '../changes/Historial';
import { FuncionesField } from '../funciones/FuncionesField';
import { OsmLink } from './OsmLink';

export const LugarShow = () => (
  <Show queryOptions={showsImages()}>
    <SimpleShowLayout>
      <TextField source="nombre" />
      <TextField source="direccion" />
      <OsmLink label="cartelera.lugares.point" />
      <BooleanField source="accesible" />
      <UrlField source="url" emptyText="—" />
      <ImagenesField label="cartelera.imagenes.title" />
      <FuncionesField by="lugar" label="cartelera.funciones.title" />
      <Historial label="cartelera.changes.history" />
    </SimpleShowLayout>
  </Show>
);
