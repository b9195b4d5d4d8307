import { DataTable, ReferenceManyField, Show, SimpleShowLayout, TextField } from 'react-admin';

/** The movies, works or events of this category: a page of them at a time. */
const UsedBy = ({ reference }: { reference: string; label: string }) => (
  <ReferenceManyField reference={reference} target="categoria_id" perPage={10}>
    <DataTable bulkActionButtons={false} rowClick="show">
      <DataTable.Col source="titulo" label="resources.peliculas.fields.titulo" />
    </DataTable>
  </ReferenceManyField>
);

export const CategoriaShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="nombre" />
      <UsedBy reference="peliculas" label="resources.peliculas.name" />
      <UsedBy reference="Obras" label="resources.Obras.name" />
      <UsedBy reference="eventosUrbanos" label="resources.eventosUrbanos.name" />
    </SimpleShowLayout>
  </Show>
);
