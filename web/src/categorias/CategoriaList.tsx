import { DataTable, List } from 'react-admin';
import { searchFilter } from '../common/filters';
import { ResponsiveTable } from '../common/ResponsiveTable';
import { ShowLink } from '../common/ShowLink';

export const CategoriaList = () => (
  <List filters={[searchFilter]}>
    <ResponsiveTable primaryText={(r) => r.nombre}>
      <DataTable.Col source="id" />
      <DataTable.Col source="nombre" render={(r) => <ShowLink>{r.nombre}</ShowLink>} />
    </ResponsiveTable>
  </List>
);
