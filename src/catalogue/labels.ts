/**
 * The Spanish label of each field, as the admin shows it and as a spreadsheet's header may name
 * it: declared once, for the admin (web/src/i18n/es.ts) and the importer alike.
 */
const item = {
  titulo: 'Título',
  duracion: 'Duración (minutos)',
  categoria_id: 'Categoría',
  descripcion: 'Descripción',
};

export const fieldLabels = {
  categorias: { id: 'Id', nombre: 'Nombre' },
  peliculas: { ...item, id: 'Id', sipnosis: 'Sinopsis' },
  Obras: { ...item, id: 'Id' },
  eventosUrbanos: { ...item, id: 'Id', fecha: 'Fecha y hora', lugar: 'Lugar' },
  artistas: { dni: 'DNI', nombre: 'Nombre', apellido: 'Apellido', tipo: 'Tipo (actriz, director, cantante…)', descripcion: 'Descripción' },
  participaciones: { id: 'Id', artistas_dni: 'Artista', tipo_evento: 'Tipo de evento', evento_id: 'Película, obra o evento' },
} as const satisfies Record<string, Record<string, string>>;
