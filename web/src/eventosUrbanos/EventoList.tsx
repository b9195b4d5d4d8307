import { DataTable, List } from 'react-admin';
import { Poster, showsImages } from '../imagenes';
import { CategoriaField, CategoriaInput } from '../common/categoria';
import { FechaInput } from '../common/FechaInput';
import { searchFilter } from '../common/filters';
import { ListActions } from '../common/ListActions';
import { ResponsiveTable } from '../common/ResponsiveTable';
import { ShowLink } from '../common/ShowLink';
import { FechaField, fechaText } from './FechaField';

const filters = [
  searchFilter,
  <CategoriaInput key="categoria_id" source="categoria_id" />,
  <FechaInput key="fecha_gte" source="fecha_gte" time={false} />,
  <FechaInput key="fecha_lte" source="fecha_lte" time={false} />,
];

export const EventoList = () => (
  <List queryOptions={showsImages()} filters={filters} actions={<ListActions />} sort={{ field: 'fecha', order: 'ASC' }}>
    <ResponsiveTable leftIcon={() => <Poster />} primaryText={(r) => r.titulo} secondaryText={(r) => `${fechaText(r.fecha)} · ${r.lugar}`}>
      <DataTable.Col source="id" />
      <DataTable.Col source="imagenes" label="cartelera.imagenes.poster" disableSort>
        <Poster />
      </DataTable.Col>
      <DataTable.Col source="titulo" render={(r) => <ShowLink>{r.titulo}</ShowLink>} />
      <DataTable.Col source="fecha">
        <FechaField />
      </DataTable.Col>
      <DataTable.Col source="lugar" />
      <DataTable.Col source="categoria_id">
        <CategoriaField />
      </DataTable.Col>
    </ResponsiveTable>
  </List>
);
