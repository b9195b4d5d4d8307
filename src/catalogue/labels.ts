/**
 * The Spanish label of each resource and field, as the admin shows it and as a spreadsheet's header may name
 * it: declared once, for the admin (web/src/i18n/es.ts) and the importer alike.
 */
const item = {
  titulo: 'Título',
  duracion: 'Duración (minutos)',
  categoria_id: 'Categoría',
  descripcion: 'Descripción',
};

/** Each resource's name in Spanish, one and many: the admin's menu and a workbook's sheets. */
export const resourceLabels = {
  categorias: ['Categoría', 'Categorías'],
  peliculas: ['Película', 'Películas'],
  Obras: ['Obra', 'Obras'],
  eventosUrbanos: ['Evento urbano', 'Eventos urbanos'],
  artistas: ['Artista', 'Artistas'],
  participaciones: ['Participación', 'Participaciones'],
  lugares: ['Lugar', 'Lugares'],
  funciones: ['Función', 'Funciones'],
} as const satisfies Record<string, readonly [string, string]>;

export const fieldLabels = {
  categorias: { id: 'Id', nombre: 'Nombre' },
  peliculas: { ...item, id: 'Id', sipnosis: 'Sinopsis' },
  Obras: { ...item, id: 'Id' },
  eventosUrbanos: { id: 'Id', titulo: item.titulo, descripcion: item.descripcion, categoria_id: item.categoria_id, fecha: 'Fecha y hora', lugar: 'Lugar' },
  artistas: { dni: 'DNI', nombre: 'Nombre', apellido: 'Apellido', tipo: 'Tipo (actriz, director, cantante…)', descripcion: 'Descripción' },
  participaciones: { id: 'Id', artistas_dni: 'Artista', tipo_evento: 'Tipo de evento', evento_id: 'Película, obra o evento' },
  lugares: { id: 'Id', nombre: 'Nombre', direccion: 'Dirección', latitud: 'Latitud', longitud: 'Longitud', accesible: 'Accesible en silla de ruedas', url: 'Sitio web' },
  funciones: {
    id: 'Id', tipo_evento: 'Tipo de evento', evento_id: 'Película, obra o evento', lugar_id: 'Lugar',
    inicio: 'Inicio', fin: 'Fin', estado: 'Estado', notas: 'Notas',
  },
} as const satisfies Record<string, Record<string, string>>;

/**
 * The labels of an image's fields: the admin's, and the headers of the sheet `Imágenes` that
 * spreadsheet exports list images in (an import does not read it back: a sheet holds no files).
 * Apart from resourceLabels, whose resources the admin's change log filters by.
 */
export const imageLabels = {
  name: ['Imagen', 'Imágenes'],
  fields: { id: 'Id', recurso: 'Recurso', clave: 'Registro', alt: 'Texto alternativo', credito: 'Crédito', foco_x: 'Foco horizontal (%)', foco_y: 'Foco vertical (%)', orden: 'Orden', ancho: 'Ancho', alto: 'Alto', tipo: 'Tipo', bytes: 'Bytes', url: 'Dirección' },
} as const;

/** A resource's labels by its path name: one and many (the name itself where none is declared). */
export const labelsOfResource = (name: string): readonly [string, string] =>
  (resourceLabels as Record<string, readonly [string, string]>)[name] ?? (name === 'imagenes' ? imageLabels.name : [name, name]);

/** A resource's field labels by its path name (none where none are declared). */
export const fieldLabelsOf = (name: string): Readonly<Record<string, string>> =>
  (fieldLabels as Record<string, Record<string, string>>)[name] ?? (name === 'imagenes' ? imageLabels.fields : {});

/** How a field's coded values read for people (a participation's `tipo_evento` as the item's kind), for sheets and the admin. */
export const valueLabels = {
  tipo_evento: { pelicula: resourceLabels.peliculas[0], obra: resourceLabels.Obras[0], eventoUrbano: resourceLabels.eventosUrbanos[0] },
  estado: { programada: 'Programada', cancelada: 'Cancelada', aplazada: 'Aplazada', agotada: 'Agotada' },
} as const satisfies Record<string, Record<string, string>>;

/** A field's coded value as people read it, or the value itself where it has no label. */
export const valueLabel = (field: string, value: string): string =>
  (valueLabels as Record<string, Record<string, string>>)[field]?.[value] ?? value;
