import { DataTable, List } from 'react-admin';
import { CategoriaField } from './categoria';
import { itemFilters } from './filters';
import { ListActions } from './ListActions';
import { ResponsiveTable } from './ResponsiveTable';
import { ShowLink } from './ShowLink';

/** The list of movies, and of works: the same columns and filters (title, duration, category). */
export const ItemList = () => (
  <List filters={itemFilters} actions={<ListActions />}>
    <ResponsiveTable primaryText={(r) => r.titulo} secondaryText={(r) => `${r.duracion} min`}>
      <DataTable.Col source="id" />
      <DataTable.Col source="titulo" render={(r) => <ShowLink>{r.titulo}</ShowLink>} />
      <DataTable.NumberCol source="duracion" />
      <DataTable.Col source="categoria_id">
        <CategoriaField />
      </DataTable.Col>
    </ResponsiveTable>
  </List>
);
