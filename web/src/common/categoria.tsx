import { AutocompleteInput, ReferenceField, ReferenceInput, TextField, type ReferenceFieldProps } from 'react-admin';

/**
 * The category picker: chosen by name, searched as the service searches (accents and case ignored).
 * Among a list's filters the element itself must name its `source`: the filter menu and form read it there.
 */
export const CategoriaInput = ({ source = 'categoria_id', ...props }: { source?: 'categoria_id'; alwaysOn?: boolean }) => (
  <ReferenceInput source={source} reference="categorias" sort={{ field: 'nombre', order: 'ASC' }} {...props}>
    {/* Wide enough for a name, even in a list's filter bar. */}
    <AutocompleteInput optionText="nombre" label="resources.peliculas.fields.categoria_id" sx={{ minWidth: 240 }} />
  </ReferenceInput>
);

/** The category's name, linking to its page. A show page labels it by the `source` of its element. */
export const CategoriaField = ({ source = 'categoria_id', ...props }: Omit<ReferenceFieldProps, 'source' | 'reference'> & { source?: 'categoria_id' }) => (
  <ReferenceField source={source} reference="categorias" link="show" {...props}>
    <TextField source="nombre" />
  </ReferenceField>
);
