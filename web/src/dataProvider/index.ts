import { HttpError, type DataProvider, type GetListParams, type Identifier, type RaRecord, type SortPayload } from 'react-admin';
import type { Change } from '../../../src/api/changeSchemas';
import { dayBound } from '../common/fecha';
import { etagOf } from './etag';
import { request, type Answer } from './http';

/**
 * react-admin's data provider for cartelera: the only module that knows the service's wire. The
 * resource names are the service's paths (`peliculas`, `Obras`…). Its quirks, handled here:
 * - `GET /peliculas/{x}` looks a title up, so one record is read by `?id=` (artists by `?dni=`);
 * - artists are keyed by `dni`, which react-admin sees as `id`;
 * - an edit sends `If-Match` with the ETag of the record as it was last read (by its form, or by its
 *   page, leaving out what `_expand`/`_embed` attached), so a record deleted meanwhile is refused
 *   with 412 too: that one is told apart by reading it again;
 * - a plain date bounding `fecha` means that whole day of the events' wall clock (see common/fecha.ts);
 * - a list is exported by `GET /exportar.<format>` with its own filter and sort parameters;
 * - an image is uploaded as a multipart form, its progress heard (ImageMethods);
 * - the change log is the resource `cambios`, read as any list; undoing a change and following the
 *   live feed are the two methods beyond react-admin's (ChangeMethods).
 */

type Json = Record<string, unknown>;

/** The fields each resource's writes send, in the interface's names. */
const FIELDS: Record<string, string[]> = {
  categorias: ['nombre'],
  peliculas: ['titulo', 'sipnosis', 'duracion', 'categoria_id'],
  Obras: ['titulo', 'descripcion', 'duracion', 'categoria_id'],
  eventosUrbanos: ['titulo', 'descripcion', 'fecha', 'lugar', 'categoria_id'],
  artistas: ['dni', 'nombre', 'apellido', 'tipo', 'descripcion'],
  participaciones: ['artistas_dni', 'tipo_evento', 'evento_id'],
  lugares: ['nombre', 'direccion', 'latitud', 'longitud', 'accesible', 'url'],
  funciones: ['tipo_evento', 'evento_id', 'lugar_id', 'inicio', 'fin', 'estado', 'notas'],
};

const keyOf = (resource: string) => (resource === 'artistas' ? 'dni' : 'id');
/** react-admin's `id` is the artist's `dni`: in filters and sorts too. */
const wireName = (resource: string, field: string) => (field === 'id' ? keyOf(resource) : field);

const fromApi = (resource: string, record: Json): RaRecord => ({ ...record, id: record[keyOf(resource)] as Identifier });

function toApi(resource: string, data: Partial<RaRecord>): Json {
  const fields = FIELDS[resource] ?? [];
  // A field left empty is sent as null, so that the service names it ("es obligatorio").
  return Object.fromEntries(fields.map((f) => [f, data[f] ?? null]));
}

const one = (resource: string, id: Identifier) => `/${resource}/${encodeURIComponent(String(id))}`;

const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `fecha_lte=2027-02-20` alone would leave that day's events out, all but those at midnight. */
function filterValue(field: string, value: unknown): string {
  const text = String(value);
  if (!PLAIN_DATE.test(text)) return text;
  if (field === 'fecha_gte') return dayBound(text, 'first');
  if (field === 'fecha_lte') return dayBound(text, 'last');
  return text;
}

/** The query string: filters by equality (a list means "any of"), then the other parameters. */
function query(resource: string, filter: Json, extra: [string, string][] = []): string {
  const params = new URLSearchParams();
  for (const [field, value] of Object.entries(filter)) {
    // Stored text is trimmed: a space typed around a filter's value would match nothing.
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) continue;
    for (const v of [value].flat()) params.append(wireName(resource, field), filterValue(field, typeof v === 'string' ? v.trim() : v));
  }
  for (const [name, value] of extra) params.append(name, value);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** `_sort`/`_order` of a list, in the service's names. */
const sortParams = (resource: string, sort: SortPayload | undefined): [string, string][] =>
  sort?.field ? [['_sort', wireName(resource, sort.field)], ['_order', sort.order === 'DESC' ? 'desc' : 'asc']] : [];

export const EXPORT_FORMATS = ['xlsx', 'csv', 'ods'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Where a list downloads as a file, with its filters and sort as shown (CSV: staff's, with `;`); without a list, the whole catalogue. */
export function exportUrl(format: ExportFormat, list?: { resource: string; filter: Json; sort?: SortPayload }): string {
  if (!list) return `/exportar.${format}`;
  return `/exportar.${format}${query(list.resource, list.filter, [['recurso', list.resource], ...sortParams(list.resource, list.sort)])}`;
}

/** `_expand`/`_embed` asked for through react-admin's `meta`. */
function relations(meta: unknown): [string, string][] {
  const { expand = [], embed = [] } = (meta ?? {}) as { expand?: string[]; embed?: string[] };
  return [...expand.map((e): [string, string] => ['_expand', e]), ...embed.map((e): [string, string] => ['_embed', e])];
}

/** The record as a lookup answers it: the service attaches `_expand`/`_embed` under their names, after its fields. */
function withoutRelations(record: Json, relationParams: [string, string][]): Json {
  const attached = new Set(relationParams.map(([, name]) => name));
  return Object.fromEntries(Object.entries(record).filter(([field]) => !attached.has(field)));
}

const list = (answer: Answer) => answer.json as Json[];

/** ETags of the records read for editing, by resource and id. */
const etags = new Map<string, string>();
const tagKey = (resource: string, id: Identifier) => `${resource}/${String(id)}`;
function remember(resource: string, record: Json): void {
  // The record as a lookup serializes it: JSON.parse keeps the order of the fields.
  etags.set(tagKey(resource, record[keyOf(resource)] as Identifier), etagOf(JSON.stringify(record)));
}

async function getList(resource: string, params: Partial<GetListParams>) {
  const { page = 1, perPage = 10 } = params.pagination ?? {};
  const extra: [string, string][] = [
    ['_page', String(page)],
    ['_limit', String(perPage)],
    ...relations(params.meta),
    ...sortParams(resource, params.sort),
  ];
  const answer = await request('GET', `/${resource}${query(resource, params.filter ?? {}, extra)}`);
  return { data: list(answer).map((r) => fromApi(resource, r)), total: Number(answer.headers.get('x-total-count') ?? 0) };
}

/** Whether the record is no longer there (a refused If-Match says only that it is not as it was read). */
async function isGone(resource: string, id: Identifier): Promise<boolean> {
  return list(await request('GET', `/${resource}${query(resource, { id })}`)).length === 0;
}

/** What the admin does with the change log beyond reading it as a list. */
export interface ChangeMethods {
  /** Undoes a change (`POST /cambios/{id}/deshacer`); answers the changes the undo made. */
  undo(id: Identifier): Promise<Change[]>;
  /**
   * Follows the live feed (`GET /cambios` as Server-Sent Events) for the changes after `after` that
   * match `filter` (it resumes by itself after a dropped connection), until `signal` aborts. Like
   * every method of a data provider it answers a promise: this one settles when the feed is closed.
   */
  follow(filter: Json, after: Identifier, onChange: (change: Change) => void, signal: AbortSignal): Promise<void>;
}

/** What the admin does with showtimes and venues beyond react-admin's methods. */
export interface VenueMethods {
  /** Creates a series of showtimes (`POST /funciones/serie`), all or nothing; answers them. */
  createSeries(rule: Json): Promise<RaRecord[]>;
  /** The venue of that name, compared as the service compares names, or undefined. */
  lugarNamed(nombre: string): Promise<RaRecord | undefined>;
  /** The city's zone (`TIMEZONE`) and its wall clock now (`GET /hora`). */
  hora(): Promise<Hora>;
}

/** `GET /hora`: where the catalogue's events happen, and what time it is there. */
export interface Hora {
  zona: string;
  ahora: string;
}

/** What the admin does with images beyond react-admin's methods. */
export interface ImageMethods {
  /** Uploads one picture (`POST /imagenes`, multipart) with its fields; `onProgress` hears the bytes go out (0 to 1). */
  uploadImage(fields: { recurso: string; clave: Identifier; alt: string; credito?: string }, file: File, onProgress: (sent: number) => void): Promise<RaRecord>;
  /**
   * Changes the fields named (`PATCH /imagenes/{id}`): a move, a focal point, a text. Images move
   * each other, so no If-Match; a focal point written as the page closes still arrives.
   */
  patchImage(id: Identifier, changes: Json): Promise<RaRecord>;
}

export type CarteleraDataProvider = DataProvider & ChangeMethods & VenueMethods & ImageMethods;

// react-admin's methods are generic in the record type, which only the caller knows: the answers are cast.
export const dataProvider: CarteleraDataProvider = {
  getList: (resource, params) => getList(resource, params) as never,

  async getOne(resource, params) {
    const extra = relations(params.meta);
    const answer = await request('GET', `/${resource}${query(resource, { id: params.id }, extra)}`);
    const record = list(answer)[0];
    if (record === undefined) throw new HttpError('cartelera.errors.notFound', 404);
    remember(resource, withoutRelations(record, extra));
    return { data: fromApi(resource, record) } as never;
  },

  async getMany(resource, params) {
    if (params.ids.length === 0) return { data: [] };
    const answer = await request('GET', `/${resource}${query(resource, { id: params.ids }, [['_limit', String(params.ids.length)], ...relations(params.meta)])}`);
    return { data: list(answer).map((r) => fromApi(resource, r)) } as never;
  },

  getManyReference: (resource, params) =>
    getList(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } }) as never,

  async create(resource, params) {
    const answer = await request('POST', `/${resource}`, { body: toApi(resource, params.data) });
    return { data: fromApi(resource, answer.json as Json) } as never;
  },

  async update(resource, params) {
    let answer: Answer;
    try {
      answer = await request('PUT', one(resource, params.id), {
        body: toApi(resource, params.data),
        ifMatch: etags.get(tagKey(resource, params.id)),
      });
    } catch (error) {
      if ((error as HttpError).status === 412 && (await isGone(resource, params.id))) {
        etags.delete(tagKey(resource, params.id));
        throw new HttpError('cartelera.errors.deletedMeanwhile', 404);
      }
      throw error;
    }
    remember(resource, answer.json as Json);
    return { data: fromApi(resource, answer.json as Json) } as never;
  },

  async updateMany(resource, params) {
    for (const id of params.ids) {
      await request('PATCH', one(resource, id), { body: params.data, contentType: 'application/merge-patch+json' });
    }
    return { data: params.ids };
  },

  async delete(resource, params) {
    await request('DELETE', one(resource, params.id));
    etags.delete(tagKey(resource, params.id));
    return { data: params.previousData ?? { id: params.id } } as never;
  },

  async deleteMany(resource, params) {
    for (const id of params.ids) await request('DELETE', one(resource, id));
    return { data: params.ids };
  },

  async undo(id) {
    return (await request('POST', `${one('cambios', id)}/deshacer`)).json as Change[];
  },

  async createSeries(rule) {
    return list(await request('POST', '/funciones/serie', { body: rule })).map((r) => fromApi('funciones', r));
  },

  async lugarNamed(nombre) {
    // A text filter compares as the lookup does, and a missing venue is an empty list, not a refusal.
    const [found] = list(await request('GET', `/lugares${query('lugares', { nombre }, [['_limit', '1']])}`));
    return found && fromApi('lugares', found);
  },

  async hora() {
    return (await request('GET', '/hora')).json as unknown as Hora;
  },

  async uploadImage(fields, file, onProgress) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, String(value));
    form.append('archivo', file, file.name);
    return fromApi('imagenes', (await request('POST', '/imagenes', { body: form, onProgress })).json as Json);
  },

  async patchImage(id, changes) {
    const answer = await request('PATCH', one('imagenes', id), { body: changes, contentType: 'application/merge-patch+json', keepalive: true });
    return fromApi('imagenes', answer.json as Json);
  },

  follow(filter, after, onChange, signal) {
    const feed = new EventSource(`/cambios${query('cambios', filter, [['desde', String(after)]])}`);
    feed.addEventListener('cambio', (event) => onChange(JSON.parse((event as MessageEvent<string>).data) as Change));
    return new Promise((closed) => {
      const close = () => {
        feed.close();
        closed();
      };
      if (signal.aborted) close();
      else signal.addEventListener('abort', close, { once: true });
    });
  },
};
