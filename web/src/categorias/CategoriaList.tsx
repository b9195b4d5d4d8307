import { DataTable, List } from 'react-admin';
import { searchFilter } from '../common/filters';
import { ResponsiveTable } from '../common/ResponsiveTable';

export const CategoriaList = () => (
  <List filters={[searchFilter]}>
    <ResponsiveTable primaryText={(r) => r.nombre}>
      <DataTable.Col source="id" />
      <DataTable.Col source="nombre" />
    </ResponsiveTable>
  </List>
);
