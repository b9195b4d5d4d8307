import { AutocompleteInput, ReferenceInput } from 'react-admin';
import { artistaName, artistaQuery } from '../artistas/artistaName';
import { ItemInputs } from '../common/ItemInputs';

/** The artist (by name or dni), then the kind of item, then the item of that kind by title. */
export const ParticipacionInputs = () => (
  <>
    <ReferenceInput source="artistas_dni" reference="artistas">
      <AutocompleteInput optionText={artistaName} filterToQuery={artistaQuery} fullWidth />
    </ReferenceInput>
    <ItemInputs />
  </>
);
