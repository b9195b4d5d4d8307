import { CreateButton, FilterButton, TopToolbar, useResourceDefinition } from 'react-admin';
import { ExportButton } from './ExportButton';

/** A list's toolbar: react-admin's filter menu and create button, and the export staff can open in a spreadsheet. */
export const ListActions = () => {
  const { hasCreate } = useResourceDefinition();
  return (
    <TopToolbar>
      <FilterButton />
      {hasCreate && <CreateButton />}
      <ExportButton />
    </TopToolbar>
  );
};
