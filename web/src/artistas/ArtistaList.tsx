import { DataTable, List } from 'react-admin';
import { searchFilter } from '../common/filters';
import { ListActions } from '../common/ListActions';
import { ResponsiveTable } from '../common/ResponsiveTable';
import { ShowLink } from '../common/ShowLink';

export const ArtistaList = () => (
  <List filters={[searchFilter]} actions={<ListActions />}>
    <ResponsiveTable primaryText={(r) => `${r.nombre} ${r.apellido}`} secondaryText={(r) => `${r.tipo} · DNI ${r.dni}`}>
      <DataTable.Col source="dni" />
      <DataTable.Col source="nombre" render={(r) => <ShowLink>{r.nombre}</ShowLink>} />
      <DataTable.Col source="apellido" />
      <DataTable.Col source="tipo" />
    </ResponsiveTable>
  </List>
);
