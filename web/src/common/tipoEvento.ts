/** The kinds of item a participation names, and the resource each one is. */
export const ITEM_RESOURCE = { pelicula: 'peliculas', obra: 'Obras', eventoUrbano: 'eventosUrbanos' } as const;
export type TipoEvento = keyof typeof ITEM_RESOURCE;

export const tipoEventoChoices = (Object.keys(ITEM_RESOURCE) as TipoEvento[]).map((id) => ({
  id,
  name: `cartelera.tipoEvento.${id}`,
}));

export const itemResourceOf = (tipo: unknown): string | undefined => ITEM_RESOURCE[tipo as TipoEvento];
