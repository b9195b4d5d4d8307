import { DataTable, List, ReferenceInput, AutocompleteInput, SelectInput, type RaRecord } from 'react-admin';
import { artistaName, artistaQuery } from '../artistas/artistaName';
import { TipoText } from '../common/related';
import { ListActions } from '../common/ListActions';
import { ResponsiveTable } from '../common/ResponsiveTable';
import { ShowLink } from '../common/ShowLink';
import { tipoEventoChoices } from '../common/tipoEvento';

const filters = [
  <SelectInput key="tipo_evento" source="tipo_evento" choices={tipoEventoChoices} alwaysOn />,
  <ReferenceInput key="artistas_dni" source="artistas_dni" reference="artistas">
    <AutocompleteInput optionText={artistaName} filterToQuery={artistaQuery} />
  </ReferenceInput>,
];

const artista = (p: RaRecord) => (p.artista ? `${p.artista.nombre} ${p.artista.apellido}` : p.artistas_dni);

/** Each participation with its artist and item, attached by the service (`_expand`). */
export const ParticipacionList = () => (
  <List filters={filters} actions={<ListActions />} queryOptions={{ meta: { expand: ['artista', 'evento'] } }}>
    <ResponsiveTable primaryText={artista} secondaryText={(p) => p.evento?.titulo}>
      <DataTable.Col source="id" render={(p) => <ShowLink>#{p.id}</ShowLink>} />
      <DataTable.Col source="artistas_dni" render={artista} />
      <DataTable.Col source="tipo_evento" render={(p) => <TipoText tipo={p.tipo_evento} />} />
      <DataTable.Col source="evento_id" render={(p) => p.evento?.titulo} />
    </ResponsiveTable>
  </List>
);
