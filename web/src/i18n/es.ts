import type { TranslationMessages } from 'react-admin';
import { fieldLabels } from '../../../src/catalogue/labels';
import { raSpanish } from './raSpanish';

const participantes = { participaciones: 'Artistas que participan' };

/** Every text of the admin: react-admin's own, the resources' names and fields, and the admin's messages. */
export const spanishMessages: TranslationMessages = {
  ...raSpanish,
  resources: {
    categorias: {
      name: 'Categoría |||| Categorías',
      fields: { ...fieldLabels.categorias, q: 'Buscar' },
    },
    peliculas: {
      name: 'Película |||| Películas',
      fields: {
        ...fieldLabels.peliculas,
        ...participantes,
        duracion_gte: 'Duración mínima',
        duracion_lte: 'Duración máxima',
        q: 'Buscar',
      },
    },
    Obras: {
      name: 'Obra |||| Obras',
      fields: { ...fieldLabels.Obras, ...participantes, duracion_gte: 'Duración mínima', duracion_lte: 'Duración máxima', q: 'Buscar' },
    },
    eventosUrbanos: {
      name: 'Evento urbano |||| Eventos urbanos',
      fields: {
        ...fieldLabels.eventosUrbanos,
        ...participantes,
        fecha_gte: 'Desde',
        fecha_lte: 'Hasta',
        q: 'Buscar',
      },
    },
    artistas: {
      name: 'Artista |||| Artistas',
      fields: {
        ...fieldLabels.artistas,
        participaciones: 'En qué participó',
        q: 'Buscar',
      },
    },
    participaciones: {
      name: 'Participación |||| Participaciones',
      fields: {
        ...fieldLabels.participaciones,
        artista: 'Artista',
        evento: 'Película, obra o evento',
      },
    },
  },
  cartelera: {
    title: 'Cartelera: administración del catálogo',
    tipoEvento: { pelicula: 'Película', obra: 'Obra', eventoUrbano: 'Evento urbano' },
    addParticipant: 'Agregar un artista',
    usedBy: { peliculas: 'Películas de esta categoría', Obras: 'Obras de esta categoría', eventosUrbanos: 'Eventos urbanos de esta categoría' },
    chooseTipoFirst: 'Elija primero el tipo de evento',
    conflict: {
      title: 'Otra persona cambió este registro mientras usted lo editaba.',
      message:
        'No se guardó nada. Recargue el registro: lo que usted escribió se conserva, los demás campos toman los valores actuales. Luego guarde de nuevo.',
      reload: 'Recargar el registro',
      notification: 'El registro cambió mientras lo editaba: recárguelo antes de guardar.',
    },
    writeKey: {
      title: 'Clave de escritura',
      missing:
        'El servicio pide una clave para guardar cambios. Escríbala para continuar; se recordará solo mientras esta pestaña siga abierta.',
      invalid: 'El servicio no aceptó esa clave. Compruébela y escríbala de nuevo.',
      label: 'Clave',
      submit: 'Usar esta clave',
      cancelled: 'No se guardó nada: el servicio exige una clave de escritura para modificar datos.',
    },
    errors: {
      unreachable: 'No se pudo contactar con el servicio. Compruebe la conexión e inténtelo de nuevo.',
      notFound: 'El registro no existe: quizá alguien lo eliminó.',
      deletedMeanwhile: 'No se guardó nada: otra persona eliminó este registro mientras usted lo editaba.',
    },
  },
};
