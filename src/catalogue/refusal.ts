/**
 * Why the catalogue refused an operation, in words a client can act on. The HTTP layer answers
 * each kind with its status (400, 404, 412, 409); the command line reports it as a problem of a
 * record. `changed`: the record is no longer the version the client named (If-Match); `conflict`:
 * the store is no longer as the operation needs it (an undo of a change made since).
 */
export type RefusalKind = 'invalid' | 'not_found' | 'changed' | 'conflict' | 'too_large' | 'unsupported';

export class Refusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    /** The Spanish sentence(s) the client gets. */
    readonly details: string,
    /** One entry per problem: the field it names (when it names one) and its sentence. */
    readonly problems: readonly Problem[] = [{ sentence: details }],
  ) {
    super(details);
  }
}

export interface Problem {
  field?: string;
  sentence: string;
}

export const invalid = (details: string, field?: string) => new Refusal('invalid', details, [{ field, sentence: details }]);
export const notFound = (details: string) => new Refusal('not_found', details);
export const conflict = (details: string) => new Refusal('conflict', details);
/** A file over a limit (an image's bytes or pixels). */
export const tooLarge = (details: string) => new Refusal('too_large', details);
/** A file of a kind the service does not take. */
export const unsupported = (details: string) => new Refusal('unsupported', details);
