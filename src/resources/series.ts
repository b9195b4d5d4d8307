import type { Estado, TipoEvento } from '../catalogue/fields.js';
import { messages } from '../catalogue/messages.js';
import { Refusal, type Problem } from '../catalogue/refusal.js';
import { seriesStarts, shownWallClock, type SeriesRule } from '../catalogue/series.js';
import { violationOf } from '../db/errors.js';
import type { Db } from '../db/schema.js';
import { inSavepoint, inTransaction } from '../db/transaction.js';
import { ChangeBatch, type ChangeContext } from './changeLog.js';
import { funciones } from './funciones.js';
import { missingReferences, recordCreated } from './writes.js';

/** A series as sent (`POST /funciones/serie`): the rule, and what each of its showtimes shares. */
export interface Series extends SeriesRule {
  tipo_evento: TipoEvento;
  evento_id: number;
  lugar_id: number;
  estado?: Estado | null;
  notas?: string | null;
}

type Row = Record<string, unknown>;

/**
 * Creates every showtime of a series in one transaction, all or nothing, each logged as an `alta`;
 * answers them in `inicio` order. Refuses with every problem at once: the rule's, a missing item
 * or venue, and each showtime that already exists, named by its date and time. `zone`: TIMEZONE.
 */
export async function createSeries(db: Db, series: Series, zone: string, context: Omit<ChangeContext, 'batch'>): Promise<Row[]> {
  const expanded = seriesStarts(series, zone);
  const { tipo_evento, evento_id, lugar_id, estado, notas } = series;
  return inTransaction(db, async (trx) => {
    const problems: Problem[] = (await missingReferences(trx, funciones, { ...series })).map((sentence) => ({ sentence }));
    if ('problems' in expanded) problems.push(...expanded.problems);
    else if (problems.length === 0) problems.push(...(await existing(trx, series, expanded.starts)));
    if (problems.length > 0 || 'problems' in expanded) throw refusal(problems);
    const records = expanded.starts.map((inicio) => ({ tipo_evento, evento_id, lugar_id, inicio, estado, notas }));
    let stored: Row[];
    try {
      stored = await inSavepoint(trx, () => funciones.createMany(trx, records));
    } catch (error) {
      // Written meanwhile by another: named as any existing one.
      if (violationOf(error) !== 'unique') throw error;
      throw refusal(await existing(trx, series, expanded.starts));
    }
    stored.sort((a, b) => String(a.inicio).localeCompare(String(b.inicio)) || Number(a.id) - Number(b.id));
    const batch = new ChangeBatch(trx);
    for (const row of stored) await recordCreated(trx, funciones, row, { ...context, batch });
    await batch.flush();
    return stored;
  });
}

/** A sentence for each showtime of the series that is already stored. */
async function existing(db: Db, series: Series, starts: string[]): Promise<Problem[]> {
  const taken = await db
    .selectFrom('funciones')
    .select('inicio')
    .where('tipo_evento', '=', series.tipo_evento)
    .where('evento_id', '=', series.evento_id)
    .where('lugar_id', '=', series.lugar_id)
    .where('inicio', '>=', starts[0] ?? '')
    .where('inicio', '<=', starts.at(-1) ?? '')
    .orderBy('inicio')
    .execute();
  const wanted = new Set(starts);
  return taken.filter(({ inicio }) => wanted.has(inicio)).map(({ inicio }) => ({ sentence: messages.series.exists(shownWallClock(inicio)) }));
}

function refusal(problems: Problem[]): Refusal {
  return new Refusal('invalid', problems.map((p) => p.sentence).join(' ') || messages.badRequest, problems);
}
