import { AutocompleteInput, ReferenceField, ReferenceInput, TextField, type ReferenceFieldProps } from 'react-admin';

/** The category picker: chosen by name, searched as the service searches (accents and case ignored). */
export const CategoriaInput = (props: { alwaysOn?: boolean }) => (
  <ReferenceInput source="categoria_id" reference="categorias" sort={{ field: 'nombre', order: 'ASC' }} {...props}>
    <AutocompleteInput optionText="nombre" label="resources.peliculas.fields.categoria_id" />
  </ReferenceInput>
);

/** The category's name, linking to its page. */
export const CategoriaField = (props: Omit<ReferenceFieldProps, 'source' | 'reference'>) => (
  <ReferenceField source="categoria_id" reference="categorias" link="show" {...props}>
    <TextField source="nombre" />
  </ReferenceField>
);
