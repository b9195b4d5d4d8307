import { DataTable, List } from 'react-admin';
import { Poster, showsImages } from '../imagenes';
import { CategoriaField } from './categoria';
import { itemFilters } from './filters';
import { ListActions } from './ListActions';
import { ResponsiveTable } from './ResponsiveTable';
import { ShowLink } from './ShowLink';

/** The list of movies, and of works: the same columns and filters (poster, title, duration, category). */
export const ItemList = () => (
  <List queryOptions={showsImages()} filters={itemFilters} actions={<ListActions />}>
    <ResponsiveTable leftIcon={() => <Poster />} primaryText={(r) => r.titulo} secondaryText={(r) => `${r.duracion} min`}>
      <DataTable.Col source="id" />
      <DataTable.Col source="imagenes" label="cartelera.imagenes.poster" disableSort>
        <Poster />
      </DataTable.Col>
      <DataTable.Col source="titulo" render={(r) => <ShowLink>{r.titulo}</ShowLink>} />
      <DataTable.NumberCol source="duracion" />
      <DataTable.Col source="categoria_id">
        <CategoriaField />
      </DataTable.Col>
    </ResponsiveTable>
  </List>
);
