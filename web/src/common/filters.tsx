import { NumberInput, SearchInput } from 'react-admin';
import { CategoriaInput } from './categoria';

/** The search box: `q` finds text in any text field, ignoring accents and case. */
export const searchFilter = <SearchInput key="q" source="q" alwaysOn />;

/** Movies and works: search, category and a duration range. */
export const itemFilters = [
  searchFilter,
  <CategoriaInput key="categoria_id" />,
  <NumberInput key="duracion_gte" source="duracion_gte" min={1} />,
  <NumberInput key="duracion_lte" source="duracion_lte" min={1} />,
];
