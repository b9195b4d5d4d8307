import { NumberInput, SearchInput, useTranslate } from 'react-admin';
import { CategoriaInput } from './categoria';

/** The search box (`q`: text in any text field, ignoring accents and case), labelled for screen readers. */
const SearchFilter = (_props: { source: 'q'; alwaysOn: true }) => (
  <SearchInput source="q" alwaysOn inputProps={{ 'aria-label': useTranslate()('ra.action.search') }} />
);
export const searchFilter = <SearchFilter key="q" source="q" alwaysOn />;

/** Movies and works: search, category and a duration range. */
export const itemFilters = [
  searchFilter,
  <CategoriaInput key="categoria_id" source="categoria_id" />,
  <NumberInput key="duracion_gte" source="duracion_gte" />,
  <NumberInput key="duracion_lte" source="duracion_lte" />,
];
