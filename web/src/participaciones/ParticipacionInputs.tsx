import { AutocompleteInput, ReferenceInput, SelectInput, TextInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { artistaName, artistaQuery } from '../artistas/artistaName';
import { itemResourceOf, tipoEventoChoices } from '../common/tipoEvento';

/** The artist (by name or dni), then the kind of item, then the item of that kind by title. */
export const ParticipacionInputs = () => {
  const { setValue } = useFormContext();
  const reference = itemResourceOf(useWatch({ name: 'tipo_evento' }));
  return (
    <>
      <ReferenceInput source="artistas_dni" reference="artistas">
        <AutocompleteInput optionText={artistaName} filterToQuery={artistaQuery} fullWidth />
      </ReferenceInput>
      <SelectInput
        source="tipo_evento"
        choices={tipoEventoChoices}
        // An item id means nothing once the kind changes.
        onChange={() => setValue('evento_id', null)}
      />
      {reference ? (
        <ReferenceInput key={reference} source="evento_id" reference={reference}>
          <AutocompleteInput optionText="titulo" fullWidth />
        </ReferenceInput>
      ) : (
        <TextInput source="evento_id" disabled helperText="cartelera.chooseTipoFirst" />
      )}
    </>
  );
};
