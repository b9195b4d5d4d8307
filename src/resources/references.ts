import type { Db } from '../db/schema.js';
import { messages } from '../http/messages.js';
import { categorias } from './categorias.js';

/** After a foreign-key refusal of a movie, work or event: is its category the missing one? */
export async function missingCategoria(db: Db, id: number): Promise<string[]> {
  const found = await db.selectFrom('categorias').select('id').where('id', '=', id).executeTakeFirst();
  return found ? [] : [messages.missingReference(categorias.nouns, id)];
}
