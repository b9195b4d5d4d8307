import type { TranslationMessages } from 'react-admin';
import { fieldLabels, imageLabels, resourceLabels, valueLabels } from '../../../src/catalogue/labels';
import { raSpanish } from './raSpanish';

/** react-admin's "one |||| many" from the resource's labels. */
const plural = (name: keyof typeof resourceLabels) => resourceLabels[name].join(' |||| ');

const participantes = { participaciones: 'Artistas que participan' };

/** What the import does to a record already stored, when the file's row replaces it: the report counts those as «Actualizados». */
const actualizar = 'Actualizarlos con los del archivo';

/** Every text of the admin: react-admin's own, the resources' names and fields, and the admin's messages. */
export const spanishMessages: TranslationMessages = {
  ...raSpanish,
  resources: {
    categorias: {
      name: plural('categorias'),
      fields: { ...fieldLabels.categorias, q: 'Buscar' },
    },
    peliculas: {
      name: plural('peliculas'),
      fields: {
        ...fieldLabels.peliculas,
        ...participantes,
        duracion_gte: 'Duración mínima',
        duracion_lte: 'Duración máxima',
        q: 'Buscar',
      },
    },
    Obras: {
      name: plural('Obras'),
      fields: { ...fieldLabels.Obras, ...participantes, duracion_gte: 'Duración mínima', duracion_lte: 'Duración máxima', q: 'Buscar' },
    },
    eventosUrbanos: {
      name: plural('eventosUrbanos'),
      fields: {
        ...fieldLabels.eventosUrbanos,
        ...participantes,
        fecha_gte: 'Desde',
        fecha_lte: 'Hasta',
        q: 'Buscar',
      },
    },
    artistas: {
      name: plural('artistas'),
      fields: {
        ...fieldLabels.artistas,
        participaciones: 'En qué participó',
        q: 'Buscar',
      },
    },
    imagenes: { name: imageLabels.name.join(' |||| '), fields: imageLabels.fields },
    lugares: { name: plural('lugares'), fields: { ...fieldLabels.lugares, q: 'Buscar' } },
    funciones: {
      name: plural('funciones'),
      fields: { ...fieldLabels.funciones, desde: 'Desde', hasta: 'Hasta', dias: 'Días de la semana', horas: 'Horas', excepto: 'Excepto los días' },
    },
    cartelera: { name: 'Cartelera |||| Cartelera', fields: { lugar_id: fieldLabels.funciones.lugar_id, tipo_evento: fieldLabels.funciones.tipo_evento } },
    participaciones: {
      name: plural('participaciones'),
      fields: {
        ...fieldLabels.participaciones,
        artista: 'Artista',
        evento: 'Película, obra o evento',
      },
    },
  },
  cartelera: {
    title: 'Cartelera: administración del catálogo',
    tipoEvento: valueLabels.tipo_evento,
    addParticipant: 'Agregar un artista',
    usedBy: { peliculas: 'Películas de esta categoría', Obras: 'Obras de esta categoría', eventosUrbanos: 'Eventos urbanos de esta categoría' },
    chooseTipoFirst: 'Elija primero el tipo de evento',
    fecha: {
      help: 'Día/mes/año y la hora, si la tiene, de 0 a 23: 25/12/2026 21:30. El día solo es el día entero.',
      invalid: 'No es una fecha: escríbala como 25/12/2026, o con la hora, 25/12/2026 21:30.',
      invalidDay: 'No es un día: escríbalo como 25/12/2026.',
    },
    conflict: {
      title: 'Otra persona cambió este registro mientras usted lo editaba.',
      message:
        'No se guardó nada. Recargue el registro: lo que usted escribió se conserva, los demás campos toman los valores actuales. Luego guarde de nuevo.',
      restoreMessage: 'No se restauró nada. Recargue el registro para ver cómo quedó; luego, si todavía hace falta, restaure esa versión de nuevo.',
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
    changes: {
      history: 'Historial',
      noHistory: 'Sin cambios registrados.',
      nobody: 'sin clave',
      operations: { alta: 'Alta', modificacion: 'Modificación', baja: 'Baja' },
      columns: { when: 'Cuándo', who: 'Quién', what: 'Qué cambió', record: 'Registro', resource: 'Recurso' },
      restoreVersion: 'Restaurar esta versión',
      restored: 'Se restauró esa versión.',
      trash: 'Papelera',
      trashHelp: 'Lo eliminado, lo más reciente primero. «Restaurar» lo devuelve con su misma clave y con los artistas que participaban.',
      trashEmpty: 'La papelera está vacía.',
      restore: 'Restaurar',
      alreadyRestored: 'Ya restaurado: ver',
      restoredFromTrash: 'Se restauró «%{title}».',
      restoredWithParticipations:
        'Se restauró «%{title}» (y %{smart_count} participación). |||| Se restauró «%{title}» (y %{smart_count} participaciones).',
      recent: 'Cambios recientes',
      recentHelp: 'Los últimos cambios de todo el catálogo, al instante.',
      all: 'Todos',
    },
    transfer: {
      menu: 'Importar y exportar',
      title: 'Importar y exportar',
      importTitle: 'Importar',
      importHelp:
        'Elija un libro .xlsx u .ods (una hoja por recurso: Películas, Obras…) o archivos CSV con el nombre de su recurso (peliculas.csv…). La primera fila nombra las columnas, como en el catálogo.',
      files: 'Archivos',
      noFiles: 'Ningún archivo elegido',
      existing: 'Registros que ya existen',
      existingChoices: { error: 'Avisar como problema', omitir: 'Dejarlos como están', actualizar },
      check: 'Comprobar',
      import: 'Importar',
      working: 'Leyendo los archivos…',
      checkedOk: 'Sin problemas. Esto es lo que se guardaría (todavía no se guardó nada):',
      stored: 'Se guardó todo. Esto es lo que se guardó:',
      problems: '%{smart_count} problema: no se guardó nada. Corríjalo en el archivo y vuelva a intentarlo. |||| %{smart_count} problemas: no se guardó nada. Corríjalos en el archivo y vuelva a intentarlo.',
      unlisted: 'Se listan los primeros %{listed}.',
      notices: 'Avisos',
      columns: { file: 'Archivo', sheet: 'Hoja', row: 'Fila', field: 'Columna', value: 'Valor', sentence: 'Problema', resource: 'Recurso', created: 'Nuevos', updated: 'Actualizados', unchanged: 'Sin cambios' },
      exportTitle: 'Exportar',
      exportHelp:
        `Todo el catálogo en un libro .xlsx (o .ods, el de LibreOffice): una hoja por recurso, con las fechas como fechas. Edítelo y vuelva a importarlo con «${actualizar}». Cada lista exporta también lo que muestra, con sus filtros y su orden.`,
      exportAll: 'Exportar todo',
    },
    export: {
      choose: 'Elegir el formato',
      formats: { xlsx: 'Libro de Excel (.xlsx)', csv: 'CSV para planillas (;)', ods: 'Libro de LibreOffice (.ods)' },
    },
    lugares: {
      paste: 'Pegar coordenadas',
      pasteHelp: 'Como las copian los sitios de mapas: latitud, longitud (-34.6037, -58.3816). Completan Latitud y Longitud.',
      pasteInvalid: 'No son coordenadas: escríbalas como -34.6037, -58.3816.',
      point: 'Ubicación',
      osm: 'ver en OpenStreetMap',
      noPoint: 'Sin coordenadas.',
    },
    imagenes: {
      title: imageLabels.name[1],
      none: 'Todavía no tiene imágenes. Agregue una o varias a la vez: la primera será su cartel.',
      noneShown: 'Sin imágenes. Se agregan al editar.',
      help: 'La primera es el cartel. Para ordenarlas, arrastre una imagen por «Mover» hasta el lugar de otra, o use «Subir» y «Bajar».',
      drop: 'Arrastre aquí las imágenes (JPEG, PNG, WebP o AVIF), o elíjalas:',
      choose: 'Elegir imágenes',
      pending: 'Imágenes por agregar',
      altHelp:
        'Describa lo que muestra la imagen para quien no puede verla («La actriz, de perfil, bajo la lluvia en una calle de noche»), no «cartel», «foto» ni el nombre del archivo.',
      altRequired: 'Escriba el texto alternativo: qué muestra la imagen.',
      creditoHelp: 'Quién hizo la foto o el cartel, o de dónde viene («Foto: Ana Pérez», «Archivo Lita Stantic»). Puede quedar vacío.',
      uploading: 'Progreso de «%{name}»',
      discard: 'Quitar',
      upload: 'Agregar %{smart_count} imagen |||| Agregar %{smart_count} imágenes',
      number: 'Imagen %{orden} de %{total}',
      poster: 'Cartel',
      focus: 'Punto de interés: %{x} % del ancho, %{y} % del alto. Haga clic en la imagen o use las flechas para moverlo.',
      focusHelp: 'Haga clic o arrastre hasta donde está lo importante (o use las flechas): los recortes lo mantienen a la vista. Se guarda al soltar o al dejar de moverlo.',
      move: 'Mover',
      crops: 'Cómo se recorta:',
      saveTexts: 'Guardar los textos',
      up: 'Subir',
      down: 'Bajar',
      delete: 'Eliminar',
      upOf: 'Subir la imagen %{orden}',
      downOf: 'Bajar la imagen %{orden}',
      deleteOf: 'Eliminar la imagen %{orden}',
      deleted: 'Se eliminó la imagen. Puede restaurarla desde la Papelera.',
    },
    funciones: {
      title: 'Funciones',
      none: 'Todavía no tiene funciones.',
      add: 'Agregar una función',
      addSeries: 'Agregar una serie',
      editOf: 'Editar la función del %{when}',
      cancel: 'Cancelar',
      cancelOf: 'Cancelar la función del %{when}',
      postpone: 'Aplazar',
      postponeOf: 'Aplazar la función del %{when}',
      reschedule: 'Programar',
      rescheduleOf: 'Volver a programar la función del %{when}',
      changed: 'Función del %{when}: %{estado}.',
      first: 'Crear su primera función',
      firstAt: 'Este evento todavía no tiene funciones. Su fecha y su lugar dan la primera, en «%{lugar}».',
      firstNewVenue: 'Este evento todavía no tiene funciones. No hay un lugar llamado «%{lugar}»: se creará con la dirección que escriba.',
      firstMade: 'Se creó su primera función.',
    },
    series: {
      title: 'Serie de funciones de «%{titulo}»',
      noItem: 'Abra la página de una película, obra o evento y elija «Agregar una serie».',
      horasHelp: 'De 00:00 a 23:59, separadas por comas: 18:00, 21:30',
      exceptoHelp: 'Días a saltear, separados por comas: 24/12/2026, 31/12/2026',
      incomplete: 'Elija desde, hasta, los días y las horas para ver qué funciones se crearán.',
      preview: 'Se creará %{smart_count} función: |||| Se crearán %{smart_count} funciones:',
      previewLabel: 'Funciones que se crearán',
      more: 'y %{smart_count} más. |||| y %{smart_count} más.',
      create: 'Crear las funciones',
      created: 'Se creó %{smart_count} función. |||| Se crearon %{smart_count} funciones.',
    },
    listings: { empty: 'No hay funciones esta semana con estos filtros.' },
    noParticipants: 'Nadie participa todavía.',
    noCareer: 'Todavía no participó en nada.',
    errors: {
      unreachable: 'No se pudo contactar con el servicio. Compruebe la conexión e inténtelo de nuevo.',
      notFound: 'El registro no existe: quizá alguien lo eliminó.',
      deletedMeanwhile: 'No se guardó nada: otra persona eliminó este registro mientras usted lo editaba.',
    },
  },
};
