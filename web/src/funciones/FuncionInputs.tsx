import { AutocompleteInput, ReferenceInput, SelectInput, TextInput } from 'react-admin';
import { valueLabels } from '../../../src/catalogue/labels';
import { FechaInput } from '../common/FechaInput';
import { ItemInputs } from '../common/ItemInputs';

export const estadoChoices = Object.entries(valueLabels.estado).map(([id, name]) => ({ id, name }));

/** The venue, chosen by name. */
export const LugarInput = () => (
  <ReferenceInput source="lugar_id" reference="lugares" sort={{ field: 'nombre', order: 'ASC' }}>
    <AutocompleteInput optionText="nombre" fullWidth />
  </ReferenceInput>
);

/** A showtime's fields, for creating and editing alike. */
export const FuncionInputs = () => (
  <>
    <ItemInputs />
    <LugarInput />
    <FechaInput source="inicio" />
    <FechaInput source="fin" />
    <SelectInput source="estado" choices={estadoChoices} emptyText={valueLabels.estado.programada} />
    <TextInput source="notas" fullWidth />
  </>
);
