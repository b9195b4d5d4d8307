import { AutocompleteInput, ReferenceInput, SelectInput, TextInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { itemResourceOf, tipoEventoChoices } from './tipoEvento';

/** The kind of item, then the item of that kind by title (a participation's, a showtime's). */
export const ItemInputs = () => {
  const { setValue } = useFormContext();
  const reference = itemResourceOf(useWatch({ name: 'tipo_evento' }));
  return (
    <>
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
