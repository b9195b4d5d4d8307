import { Typography } from '@mui/material';
import { ArrayField, CreateButton, DataTable, useRecordContext, useTranslate, type RaRecord } from 'react-admin';
import { ShowLink } from './ShowLink';
import { itemResourceOf, tipoEventoChoices, type TipoEvento } from './tipoEvento';

type Participation = RaRecord & {
  artistas_dni: number;
  tipo_evento: string;
  evento_id: number;
  artista?: { nombre: string; apellido: string; tipo: string };
  evento?: { titulo: string };
};

const Col = DataTable.Col<Participation>;
const fullName = (p: Participation) => (p.artista ? `${p.artista.nombre} ${p.artista.apellido}` : p.artistas_dni);

/** A movie's, work's or event's artists (its embedded `participaciones`, each with its `artista`). */
export const ParticipantesField = ({ tipo }: { tipo: TipoEvento; label?: string }) => {
  const record = useRecordContext();
  return (
    <>
      <ArrayField source="participaciones">
        <DataTable<Participation>
          bulkActionButtons={false}
          rowClick={(_id, _resource, p) => `/artistas/${p.artistas_dni}/show`}
          empty={<Empty text="cartelera.noParticipants" />}
        >
          <Col
            label="resources.participaciones.fields.artista"
            render={(p) => (
              <ShowLink resource="artistas" id={p.artistas_dni}>
                {fullName(p)}
              </ShowLink>
            )}
          />
          <Col label="resources.artistas.fields.tipo" render={(p) => p.artista?.tipo} />
          <Col label="resources.artistas.fields.dni" source="artistas_dni" />
        </DataTable>
      </ArrayField>
      <CreateButton
        resource="participaciones"
        label="cartelera.addParticipant"
        state={{ record: { tipo_evento: tipo, evento_id: record?.id } }}
      />
    </>
  );
};

const tipoLabel = (tipo: string) => tipoEventoChoices.find((c) => c.id === tipo)?.name ?? tipo;

/** An artist's career (their embedded `participaciones`, each with its `evento`). */
export const CareerField = (_props: { label?: string }) => (
  <ArrayField source="participaciones">
    <DataTable<Participation>
      bulkActionButtons={false}
      rowClick={(_id, _resource, p) => `/${itemResourceOf(p.tipo_evento)}/${p.evento_id}/show`}
      empty={<Empty text="cartelera.noCareer" />}
    >
      <Col label="resources.participaciones.fields.tipo_evento" render={(p) => <TipoText tipo={p.tipo_evento} />} />
      <Col
        label="resources.peliculas.fields.titulo"
        render={(p) => (
          <ShowLink resource={itemResourceOf(p.tipo_evento)} id={p.evento_id}>
            {p.evento?.titulo}
          </ShowLink>
        )}
      />
    </DataTable>
  </ArrayField>
);

/** What an empty list of participations says: about people, not about the record's kind. */
const Empty = ({ text }: { text: string }) => (
  <Typography variant="body2" sx={{ py: 1 }}>
    {useTranslate()(text)}
  </Typography>
);

/** A tipo_evento in words: "Película". */
export const TipoText = ({ tipo }: { tipo: string }) => <>{useTranslate()(tipoLabel(tipo))}</>;
