import { Historial } from '../changes/Historial';
import { DataTable, Pagination, ReferenceManyField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { ShowLink } from '../common/ShowLink';

/** The movies, works or events of this category: a page of them at a time. */
const UsedBy = ({ reference }: { reference: string; label: string }) => (
  <ReferenceManyField reference={reference} target="categoria_id" perPage={10} pagination={<Pagination rowsPerPageOptions={[]} />}>
    <DataTable bulkActionButtons={false} rowClick="show">
      <DataTable.Col source="titulo" label="resources.peliculas.fields.titulo" render={(r) => <ShowLink>{r.titulo}</ShowLink>} />
    </DataTable>
  </ReferenceManyField>
);

export const CategoriaShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="nombre" />
      <UsedBy reference="peliculas" label="cartelera.usedBy.peliculas" />
      <UsedBy reference="Obras" label="cartelera.usedBy.Obras" />
      <UsedBy reference="eventosUrbanos" label="cartelera.usedBy.eventosUrbanos" />
      <Historial label="cartelera.changes.history" />
    </SimpleShowLayout>
  </Show>
);
