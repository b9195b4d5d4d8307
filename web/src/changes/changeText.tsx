import { useTranslate } from 'react-admin';
import type { Change } from '../../../src/api/changeSchemas';
import { valueLabel } from '../../../src/catalogue/labels';
import { fechaText } from '../common/fecha';

export type { Change };

/** How the admin speaks of a change: its kind, its fields by their labels, values as the forms show them. */
export function useChangeText() {
  const translate = useTranslate();
  const field = (change: Change, name: string) => translate(`resources.${change.recurso}.fields.${name}`, { _: name });
  const of = (record: unknown, name: string) => (record as Record<string, unknown> | null)?.[name];
  const value = (name: string, v: unknown) => {
    if (v === null || v === undefined) return '—';
    return name === 'fecha' ? fechaText(v) : valueLabel(name, String(v));
  };
  return {
    operation: (change: Change) => translate(`cartelera.changes.operations.${change.operacion}`),
    resource: (change: Change) => translate(`resources.${change.recurso}.name`, { smart_count: 1, _: change.recurso }),
    who: (change: Change) => change.quien ?? translate('cartelera.changes.nobody'),
    /** The moment of the change, in the browser's own time: it is when someone acted, not an event's wall clock. */
    when: (change: Change) => new Date(change.cuando).toLocaleString('es-AR', { dateStyle: 'short', timeStyle: 'medium' }),
    /** "Duración (minutos): 135 → 136", "Tipo de evento: Película → Obra", one per changed field; the record's name for a creation or deletion. */
    fields: (change: Change) =>
      change.operacion === 'modificacion'
        ? change.campos.filter((name) => name !== 'id').map((name) => `${field(change, name)}: ${value(name, of(change.antes, name))} → ${value(name, of(change.despues, name))}`)
        : [title(change)],
    title,
  };
}

/** What names the record a change is about: its title, name, an image's alt text, or "#4". */
function title(change: Change): string {
  const record = (change.despues ?? change.antes ?? {}) as Record<string, unknown>;
  const name = record.titulo ?? (record.nombre !== undefined && record.apellido !== undefined ? `${String(record.nombre)} ${String(record.apellido)}` : record.nombre);
  const named = name ?? record.alt;
  return named !== undefined ? String(named) : `#${change.clave}`;
}

