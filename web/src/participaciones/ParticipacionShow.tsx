import { Historial } from '../changes/Historial';
import { FunctionField, Link, Show, SimpleShowLayout, TextField, type RaRecord } from 'react-admin';
import { artistaName } from '../artistas/artistaName';
import { TipoText } from '../common/related';
import { itemResourceOf } from '../common/tipoEvento';

/** The participation with its artist and item, attached by the service (`_expand`). */
export const ParticipacionShow = () => (
  <Show queryOptions={{ meta: { expand: ['artista', 'evento'] } }}>
    <SimpleShowLayout>
      <TextField source="id" />
      <FunctionField
        source="artistas_dni"
        render={(p: RaRecord) => p.artista && <Link to={`/artistas/${p.artistas_dni}/show`}>{artistaName(p.artista)}</Link>}
      />
      <FunctionField source="tipo_evento" render={(p: RaRecord) => <TipoText tipo={p.tipo_evento} />} />
      <FunctionField
        source="evento_id"
        render={(p: RaRecord) =>
          p.evento && <Link to={`/${itemResourceOf(p.tipo_evento)}/${p.evento_id}/show`}>{p.evento.titulo}</Link>
        }
      />
      <Historial label="cartelera.changes.history" />
    </SimpleShowLayout>
  </Show>
);
