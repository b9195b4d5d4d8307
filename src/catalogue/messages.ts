/**
 * Every Spanish sentence the service answers, in one table. The spec quotes some of them
 * verbatim, odd wording included ("No se pudo ingresar una pelicula categoria…"); resources
 * supply the noun phrases (see `Nouns`) and these templates build the rest.
 */

/** The Spanish noun phrases one resource is spoken of with. */
export interface Nouns {
  /** Subject of not-found sentences: "la película". */
  the: string;
  /** In "Ya existe una película…". */
  a: string;
  /** How the GET lookup names its value: "el título" → "con el título: Roma". */
  lookupBy: string;
  /** How PUT/DELETE name the record: "id" → "con id: 4". */
  idBy: string;
  /** How the duplicate sentence names the unique value: "el titulo de" (the spec's wording). */
  duplicateBy: string;
  /** Delete success: ["la pelicula", "eliminada"] → "la pelicula con el id: 4. fue eliminada…". */
  deleted: readonly [string, 'eliminado' | 'eliminada'];
  /** The objects of the failure sentences in moreInfo: "No se pudo ingresar <create> error en:". */
  failed: { create: string; update: string; remove: string };
}

export type Operation = 'read' | 'create' | 'update' | 'remove';

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
/** `Año`, `Año y Director`, `Año, País y Director`, after `before`; nothing when there are none. */
const listed = (items: readonly string[], before = '') =>
  items.length === 0 ? '' : before + (items.length === 1 ? items.join('') : `${items.slice(0, -1).join(', ')} y ${items.at(-1)}`);

/** Bytes in MB (MiB), as people read a file's size: `10 MB`, `2,5 MB`, `0,0038 MB`. */
const megabytes = (bytes: number) => {
  const mb = bytes / (1024 * 1024);
  return `${new Intl.NumberFormat('es-AR', mb < 1 ? { maximumSignificantDigits: 2 } : { maximumFractionDigits: 1 }).format(mb)} MB`;
};

/** A number with at most one decimal and a decimal comma: `20`, `2,5`. */
const decimal = (n: number) => new Intl.NumberFormat('es-AR', { maximumFractionDigits: 1 }).format(n);

export const messages = {
  notFoundByLookup: (n: Nouns, value: unknown) => `No se encontró ${n.the} con ${n.lookupBy}: ${value}`,
  notFoundById: (n: Nouns, value: unknown) => `No se encontró ${n.the} con ${n.idBy}: ${value}`,
  duplicate: (n: Nouns, value: unknown) =>
    `Ya existe ${n.a} con ${n.duplicateBy}: ${value}, por favor, intente con otro distinto`,
  deleted: (n: Nouns, id: unknown) =>
    `${n.deleted[0]} con el id: ${id}. fue ${n.deleted[1]} correctamente.`,
  missingReference: (n: Nouns, value: unknown) => `No existe ${n.the} con ${n.idBy}: ${value}.`,
  brokenReference: 'El registro hace referencia a otro que no existe.',
  /** An import naming a record by its lookup value (`"categoria": "Drama"`) that no record has. */
  missingByLookup: (n: Nouns, value: unknown) => `No existe ${n.the} con ${n.lookupBy}: ${value}.`,
  /** An import naming a record by what people call it (an artist's name) that no record is called. */
  missingByName: (n: Nouns, value: unknown) => `No existe ${n.the} con el nombre: ${value}.`,
  ambiguousByName: (n: Nouns, value: unknown, candidates: readonly string[]) =>
    `Hay más de ${n.a} con el nombre: ${value} (${candidates.join('; ')}); escriba el que corresponde tal como se muestra.`,
  /** An import restoring a record under an id another record holds. */
  idTaken: (n: Nouns, id: unknown) => `Ya existe ${n.a} con id: ${id}, por favor, intente con otro distinto`,
  keyMismatch: (field: string, body: unknown, path: unknown) =>
    `El campo '${field}' (${body}) no coincide con el de la ruta (${path}).`,
  /** `uses`: each kind's labels (labels.ts: "Película", "Películas") and how many of its records use the category. */
  categoryInUse: (nombre: string, uses: [readonly [string, string], number][]) =>
    `La categoría "${nombre}" está en uso${listed(uses.filter(([, n]) => n > 0).map(([[one, many], n]) => `${n} ${(n === 1 ? one : many).toLowerCase()}`), ' por ')}; no se puede eliminar.`,
  /** `funciones`: the labels of showtimes (labels.ts: "Función", "Funciones"). */
  venueInUse: (nombre: string, n: number, [one, many]: readonly [string, string]) =>
    `El lugar "${nombre}" tiene ${n} ${(n === 1 ? one : many).toLowerCase()}; no se puede eliminar.`,
  coordinatesTogether: "Los campos 'latitud' y 'longitud' van juntos: envíe los dos o ninguno.",
  endBeforeStart: "El campo 'fin' debe ser posterior a 'inicio'.",

  /** `POST /funciones/serie` (docs/api.md, "Series"). */
  series: {
    date: (what: string) => `${what} debe ser una fecha válida (AAAA-MM-DD).`,
    hastaBeforeDesde: "El campo 'hasta' debe ser igual o posterior a 'desde'.",
    weekday: (given: string, days: readonly string[]) => `El campo 'dias' tiene un día que no existe: ${given} (días: ${days.join(', ')}).`,
    time: (given: string) => `El campo 'horas' tiene una hora no válida: ${given} (HH:MM, como 20:30).`,
    exceptDate: (given: string) => `El campo 'excepto' tiene una fecha no válida: ${given} (AAAA-MM-DD).`,
    none: 'La serie no da ninguna función: revise las fechas, los días y las excepciones.',
    tooMany: (max: number) => `La serie da más de ${max} funciones, el máximo: divídala en varias.`,
    exists: (when: string) => `Ya existe la función del ${when}.`,
  },

  /** What's on: `GET /cartelera` (docs/api.md, "What's on"). */
  whatsOn: {
    date: (param: string) => `El parámetro '${param}' debe ser una fecha válida (AAAA-MM-DD).`,
    hastaBeforeDesde: "El parámetro 'hasta' debe ser igual o posterior a 'desde'.",
  },

  /** Near and within: `cerca`, `radio_km`, `bbox` (docs/api.md, "Near and within"). */
  geo: {
    cerca: "El parámetro 'cerca' debe ser una latitud y una longitud separadas por coma, entre -90 y 90 y entre -180 y 180 (como -34.6037,-58.3816).",
    radio: (max: number) => `El parámetro 'radio_km' debe ser un número mayor que 0 y de a lo sumo ${max}.`,
    radioWithoutCerca: "El parámetro 'radio_km' necesita 'cerca', el punto desde el que se mide.",
    distanceWithoutCerca: "El parámetro '_sort' ordena por distancia, que necesita 'cerca', el punto desde el que se mide.",
    bbox: "El parámetro 'bbox' debe ser cuatro números separados por coma: oeste, sur, este y norte (longitudes entre -180 y 180, latitudes entre -90 y 90).",
    bboxSouth: "El parámetro 'bbox' tiene el sur al norte del norte: el segundo número debe ser menor o igual que el cuarto.",
  },

  /** Images: uploads judged by their content (docs/api.md, "Images"). */
  image: {
    missingFile: "Falta el archivo de la imagen: envíelo en la parte 'archivo' del formulario.",
    notAnImage: 'El archivo no es una imagen JPEG, PNG, WebP ni AVIF.',
    damaged: 'El archivo no es una imagen válida.',
    tooManyBytes: (bytes: number) => `El archivo supera el máximo de ${decimal(bytes / (1024 * 1024))} MB.`,
    tooManyPixels: (pixels: number) => `La imagen supera el máximo de ${decimal(pixels / 1_000_000)} millones de píxeles.`,
    notMultipart: "Envíe la imagen como multipart/form-data, con el archivo en la parte 'archivo'.",
    fixedField: (field: string) => `El campo '${field}' no puede cambiar: suba una imagen nueva.`,
    badParameter: (name: string, takes: string) => `El parámetro '${name}' admite: ${takes}.`,
    /** An import's image whose file, carried in base64, cannot be read. */
    notBase64: (field: string) => `El campo '${field}' debe ser el archivo en base64: solo A-Z, a-z, 0-9, + y /, con = al final para completar.`,
    /** An import's image whose fields say other than its file does. */
    notTheFile: (field: string, read: string | number) => `El campo '${field}' no coincide con el archivo, que dice ${read}.`,
    /** An import given an image's file where files are not taken (an upload of spreadsheets). */
    filesNotTaken: 'Esta importación no admite archivos de imágenes: use cartelera import con un export JSON o NDJSON.',
    /** An import that would replace a stored image's file. */
    otherFile: (id: number) => `El archivo no es el de la imagen con id: ${id}, y el archivo de una imagen no cambia: suba una imagen nueva.`,
  },

  moreInfo: {
    notFound: (path: string) => `No se encontró en la ruta: ${path}`,
    create: (n: Nouns, path: string) => `No se pudo ingresar ${n.failed.create} error en: ${path}`,
    update: (n: Nouns, path: string) => `No se pudo actualizar ${n.failed.update} error en: ${path}`,
    remove: (n: Nouns, path: string) => `No se pudo eliminar ${n.failed.remove} error en: ${path}`,
    read: (_n: Nouns, path: string) => `No se pudo completar la consulta en: ${path}`,
    general: (path: string) => `Error en la ruta: ${path}`,
    methodNotAllowed: (path: string) => `Método no permitido en la ruta: ${path}`,
    unavailable: (path: string) => `Servicio no disponible en la ruta: ${path}`,
    internal: (path: string) => `Error interno en la ruta: ${path}`,
    /** A request refused before it could be read whole (timeouts, oversized headers); its path may be unknown. */
    unread: (path: string) => (path ? `No se pudo leer la petición en: ${path}` : 'No se pudo leer la petición.'),
  },

  routeNotFound: (method: string, path: string) => `No existe la ruta: ${method} ${path}`,
  methodNotAllowed: (method: string) => `El método ${method} no está permitido en esta ruta.`,
  malformedJson: 'El cuerpo de la petición no es un JSON válido.',
  inexactNumber: (literal: string) =>
    `El número ${literal} del cuerpo no puede representarse con exactitud; no se admite redondeado.`,
  emptyBody: 'El cuerpo de la petición está vacío; se esperaba un objeto JSON.',
  unsupportedMediaType: (type: string) =>
    type
      ? `El tipo de contenido '${type}' no está soportado; envíe el cuerpo como application/json.`
      : 'Falta el tipo de contenido; envíe el cuerpo como application/json.',
  bodyTooLarge: 'El cuerpo de la petición supera el límite de 1 MiB.',
  badRequest: 'La petición no es válida.',
  badUrl: 'La ruta de la petición no es una URL válida (revise las secuencias %).',
  preconditionFailed: 'El registro cambió desde que lo leyó: la condición If-Match no se cumple.',
  internal: 'Error interno del servidor.',
  storeUnavailable: 'La base de datos no está disponible.',
  /** A write the store cannot take: its disk is full; its file system refuses writes. Reads go on. */
  storeFull: 'No hay espacio en el disco para guardar los cambios.',
  storeReadOnly: 'El almacenamiento no admite escrituras.',

  /** Write keys, rate limit, load shedding and connection limits (docs/operations.md, "Protection"). */
  protection: {
    keyMissing: 'Se requiere una clave de API para modificar datos: envíela en la cabecera Authorization: Bearer <clave>.',
    keyInvalid: 'La clave de API no es válida.',
    tooManyRequests: (seconds: number) =>
      `Demasiadas peticiones desde su dirección; vuelva a intentarlo en ${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}.`,
    overloaded: 'El servicio está sobrecargado; vuelva a intentarlo en unos segundos.',
    requestTimeout: 'La petición no llegó completa a tiempo; se cerró la conexión.',
    headersTooLarge: (bytes: number) => `Las cabeceras de la petición superan el límite de ${bytes} bytes.`,
    malformedRequest: 'La petición HTTP está mal formada.',
    expectation: (value: string) => `La cabecera Expect '${value}' no se admite; solo se admite 100-continue.`,
    metricsTokenRequired: 'Se requiere un token válido para ver las métricas.',
  },

  /** The list query parameters (docs/api.md, "More than the interface"). */
  query: {
    likeOnText: (param: string) => `El parámetro '${param}' solo se admite en campos de texto.`,
    order: "El parámetro '_order' debe ser asc o desc.",
    orderWithoutSort: "El parámetro '_order' necesita '_sort', que nombra los campos que ordena.",
    sortField: (field: string, fields: string[]) =>
      `El parámetro '_sort' nombra un campo que no existe: ${field} (campos: ${fields.join(', ')}).`,
    endAfterStart: "El parámetro '_end' debe ser mayor que '_start'.",
    pageTooLarge: (param: string, max: number) => `El parámetro '${param}' pide una página de más de ${max} registros, el máximo.`,
    relation: (param: string, name: string, allowed: readonly string[]) =>
      allowed.length > 0
        ? `El parámetro '${param}' no admite '${name}' (admite: ${allowed.join(', ')}).`
        : `El parámetro '${param}' no se admite en esta ruta.`,
  },

  validation: {
    bodyNotObject: 'El cuerpo de la petición debe ser un objeto JSON.',
    required: (what: string) => `${what} es obligatorio.`,
    integer: (what: string) => `${what} debe ser un número entero.`,
    text: (what: string) => `${what} debe ser un texto.`,
    empty: (what: string) => `${what} no puede estar vacío.`,
    tooLong: (what: string, max: number) => `${what} no puede tener más de ${max} caracteres.`,
    range: (what: string, min: number, max: number) => `${what} debe estar entre ${min} y ${max}.`,
    oneOf: (what: string, values: readonly unknown[]) => `${what} debe ser uno de: ${values.join(', ')}.`,
    fecha: (what: string) =>
      `${what} debe ser una fecha válida (AAAA-MM-DD o fecha y hora ISO 8601).`,
    invalid: (what: string) => `${what} no es válido.`,
    number: (what: string) => `${what} debe ser un número (como 40.416775).`,
    boolean: (what: string) => `${what} debe ser true o false.`,
    url: (what: string) => `${what} debe ser una dirección web que empiece con http:// o https://.`,
    inicio: (what: string) =>
      `${what} debe ser una fecha con hora válida (AAAA-MM-DDTHH:MM, como 2026-12-25T20:00).`,
    dotSegment: (what: string) => `${what} no puede ser '.' ni '..', que no se podrían consultar por la ruta.`,
    unstorable: (what: string) => `${what} contiene un carácter no admitido (U+0000 o un sustituto UTF-16 aislado).`,
    /** "El campo 'duracion'" in bodies, "El parámetro 'id'" in paths. */
    subject: (part: string, field: string) =>
      part === 'body' ? `El campo '${field}'` : `El parámetro '${field}'`,
  },

  unknownField: (field: string, known: readonly string[]) => `El campo '${field}' no existe aquí; los campos son: ${known.join(', ')}.`,

  /** The change log's answers (docs/api.md, "Changes"). */
  changes: {
    notFound: (id: number) => `No se encontró el cambio con id: ${id}`,
    changedSince: (n: Nouns, clave: number, id: number) => `${capitalized(n.the)} con ${n.idBy}: ${clave} cambió después del cambio ${id}; no se puede deshacer.`,
    alreadyUndone: (id: number, by: number) => `El cambio ${id} ya fue deshecho por el cambio ${by}; no se puede deshacer otra vez.`,
    goneSince: (n: Nouns, clave: number, id: number) => `${capitalized(n.the)} con ${n.idBy}: ${clave} ya no existe; no se puede deshacer el cambio ${id}.`,
    keyTaken: (n: Nouns, clave: number, id: number) => `Ya existe ${n.the} con ${n.idBy}: ${clave}; no se puede deshacer el cambio ${id}.`,
    refused: (id: number, details: string) => `No se puede deshacer el cambio ${id}: ${details}`,
    tooManyStreams: 'Hay demasiados flujos de cambios abiertos; vuelva a intentarlo en unos segundos.',
    badStart: (given: string) => `El punto de partida '${given}' no es un id de cambio (Last-Event-ID o desde: un número entero).`,
  },

  /** What the admin's import and export say of an upload as a whole (docs/data.md). */
  transfer: {
    notMultipart: 'Envíe los archivos como multipart/form-data, en partes llamadas archivo.',
    unknownPart: (name: string) => `Solo se aceptan archivos en partes llamadas archivo${name ? `; se recibió '${name}'` : ''}.`,
    noFiles: 'No se recibió ningún archivo: elija archivos CSV o un libro .xlsx u .ods.',
    emptyFile: 'El archivo está vacío.',
    tooLarge: (most: number) => `Los archivos superan el máximo de ${megabytes(most)}.`,
    tooManyFiles: (most: number) => `Se admiten a lo sumo ${most} archivos por vez.`,
    badUpload: 'No se pudo leer la subida de archivos.',
    notStored: (problems: number) => `La importación tiene ${problems} ${problems === 1 ? 'problema' : 'problemas'}; no se guardó nada.`,
    notSpreadsheet: 'No es un archivo .csv, .xlsx ni .ods.',
    notWorkbook: 'No es un libro .xlsx válido.',
    notOds: 'No es una hoja de cálculo .ods válida.',
    csvName: (expected: readonly string[]) => `Un archivo CSV lleva el nombre de su recurso (${expected.join(', ')}).`,
    /** Problems past the first ones the report lists: counted, not listed. */
    unlisted: (count: number) => `Y ${count} ${count === 1 ? 'problema más' : 'problemas más'}, que no se listan.`,
    unknownResource: (name: string, expected: readonly string[]) => `No existe el recurso '${name}'; los recursos son: ${expected.join(', ')}.`,
  },

  /** What an import says of a spreadsheet's rows and cells (docs/data.md). */
  spreadsheet: {
    ignoredColumns: (labels: readonly string[]) =>
      labels.length === 1 ? `Se ignoró la columna ${listed(labels)}.` : `Se ignoraron las columnas ${listed(labels)}.`,
    untitled: (letter: string) => `sin título (${letter})`,
    missingColumn: (label: string) => `Falta la columna ${label}, que es obligatoria: ninguna fila se puede importar sin ella.`,
    extraCells: (row: number, cells: number, columns: number) =>
      `La fila ${row} tiene ${cells} celdas y la cabecera ${columns} columnas: revise si un texto con el separador quedó sin comillas.`,
    given: (value: string) => `Valor recibido: "${value}".`,
    readAsWindows1252: 'No está en UTF-8: se leyó como Windows-1252, como Excel guarda "CSV".',
    notUtf8: 'No está en UTF-8, como pide --encoding utf-8: guárdelo como "CSV UTF-8", o no indique --encoding para leerlo como Windows-1252.',
    /** A CSV file's syntax errors, at a row of the sheet (and its column, where known). */
    csv: {
      quoteInside: (at: string) =>
        `${at} tiene comillas en medio de una celda que no empieza con comillas: encierre la celda entera entre comillas y duplique las de adentro ("").`,
      textAfterQuote: (at: string) =>
        `${at} tiene texto después de las comillas que cierran una celda: encierre la celda entera entre comillas y duplique las de adentro ("").`,
      quoteNotClosed: (at: string) =>
        `${at} tiene comillas sin cerrar: una celda empieza con comillas y el archivo termina antes de que se cierren.`,
      cells: (at: string) => `${at} no tiene tantas celdas como la cabecera.`,
      tooLong: (at: string) => `${at} es demasiado larga para leerla.`,
      other: (at: string) => `${at} no se puede leer como CSV: revise sus comillas y separadores.`,
    },
    /** Where in a CSV file: `La fila 6`, `La fila 6 (columna Sinopsis)`. */
    csvAt: (row: number, label?: string) => `La fila ${row}${label ? ` (columna ${label})` : ''}`,
    /** A sheet or CSV file of images: listed by exports, not read by imports (docs/data.md). */
    imagesIgnored: (sheet: string) =>
      `Se ignoró ${sheet}: una hoja de cálculo no lleva los archivos de las imágenes, así que no se importan desde ella; las imágenes guardadas quedan como están, y un export JSON o NDJSON las trae con sus archivos.`,
    unknownSheet: (sheet: string, expected: readonly string[]) =>
      `No se reconoce la hoja '${sheet}'; cada hoja lleva el nombre de un recurso: ${expected.join(', ')}.`,
    dateInText: (label: string, shown: string) =>
      `El campo '${label}' tiene una celda de fecha (${shown}) y no es una fecha: si es un texto, escríbalo como texto en la hoja.`,
    timeWithoutDate: (label: string, shown: string) =>
      `El campo '${label}' tiene una celda de hora (${shown}) sin fecha: escriba la fecha y la hora, como 14/11/2026 ${shown}.`,
    workbookTooLarge: (most: number) => `El libro ocupa más de ${megabytes(most)} sin comprimir; divídalo o expórtelo como CSV.`,
    tooManyRows: (resource: string, most: number) =>
      `${resource} tiene más registros de los que caben en una hoja (${most}): expórtelo como JSON o CSV.`,
    unwritable: (resource: string, key: string, field: string, code: string) =>
      `${resource} ${key}: el campo '${field}' tiene un carácter de control (${code}) que una hoja de cálculo no puede guardar: expórtelo como JSON o CSV.`,
    examples: { fecha: 'Ejemplos: 14/11/2026, 14/11/2026 20:30, 14/11/26 8:30 p. m.', duracion: 'Ejemplos: 95, 1:35, 1h35.' } as Record<string, string>,
    repeated: (value: string, row: number) => `${value} está repetido en la fila ${row} de este archivo.`,
    repeatedAt: (value: string, index: number) => `${value} está repetido en la posición ${index} de este archivo.`,
    repeatedElsewhere: (value: string, where: string) => `${value} ya viene en ${where}.`,
    row: (row: number) => `fila ${row}`,
    position: (position: number) => `posición ${position}`,
    line: (line: number) => `línea ${line}`,
    repeatedOnLine: (value: string, line: number) => `${value} está repetido en la línea ${line} de este archivo.`,
  },
} as const;
