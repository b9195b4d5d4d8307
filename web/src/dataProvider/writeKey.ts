/**
 * The write key (the service's API_KEYS), asked for when a write is refused with 401 or 403 and
 * kept in sessionStorage: it lasts as long as the tab, never on disk past it.
 */
const STORAGE_KEY = 'cartelera.writeKey';

export type KeyRefusal = 'missing' | 'invalid';
/** Shows the prompt; resolves with the key typed, or undefined when the user gives up. */
export type KeyPrompt = (refusal: KeyRefusal) => Promise<string | undefined>;

let prompt: KeyPrompt | undefined;

export const writeKey = {
  get: (): string | undefined => sessionStorage.getItem(STORAGE_KEY) ?? undefined,
  set: (key: string) => sessionStorage.setItem(STORAGE_KEY, key),
  forget: () => sessionStorage.removeItem(STORAGE_KEY),
  /** The layout's dialog registers itself here; the returned function unregisters it. */
  setPrompt(show: KeyPrompt): () => void {
    prompt = show;
    return () => {
      if (prompt === show) prompt = undefined;
    };
  },
  ask: (refusal: KeyRefusal): Promise<string | undefined> => (prompt ? prompt(refusal) : Promise.resolve(undefined)),
};
