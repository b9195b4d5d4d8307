import { DataTable, List } from 'react-admin';
import { searchFilter } from '../common/filters';
import { ListActions } from '../common/ListActions';
import { ResponsiveTable } from '../common/ResponsiveTable';
import { ShowLink } from '../common/ShowLink';

export const CategoriaList = () => (
  <List filters={[searchFilter]} actions={<ListActions />}>
    <ResponsiveTable primaryText={(r) => r.nombre}>
      <DataTable.Col source="id" />
      <DataTable.Col source="nombre" render={(r) => <ShowLink>{r.nombre}</ShowLink>} />
    </ResponsiveTable>
  </List>
);
