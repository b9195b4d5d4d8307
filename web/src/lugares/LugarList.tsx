import { DataTable, List } from 'react-admin';
import { searchFilter } from '../common/filters';
import { ListActions } from '../common/ListActions';
import { ResponsiveTable } from '../common/ResponsiveTable';
import { ShowLink } from '../common/ShowLink';

export const LugarList = () => (
  <List filters={[searchFilter]} actions={<ListActions />} sort={{ field: 'nombre', order: 'ASC' }}>
    <ResponsiveTable primaryText={(r) => r.nombre} secondaryText={(r) => r.direccion}>
      <DataTable.Col source="id" />
      <DataTable.Col source="nombre" render={(r) => <ShowLink>{r.nombre}</ShowLink>} />
      <DataTable.Col source="direccion" />
      <DataTable.Col source="accesible" render={(r) => (r.accesible ? 'Sí' : 'No')} />
    </ResponsiveTable>
  </List>
);
