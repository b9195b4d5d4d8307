import { HttpError } from 'react-admin';
import { writeKey } from './writeKey';

/** The service's error body (every non-2xx answer). */
interface ErrorBody {
  details?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The body as sent, for ETags. */
  text: string;
  json: unknown;
}

interface Options {
  body?: unknown;
  ifMatch?: string;
  contentType?: string;
}

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD';

/**
 * One request to the service, which serves the admin too: paths are its own. Writes carry the
 * write key once one was given; a 401/403 asks for it and tries again. Refusals become
 * react-admin HttpErrors whose message is the service's Spanish sentence.
 */
export async function request(method: string, path: string, options: Options = {}): Promise<Answer> {
  for (;;) {
    const answer = await send(method, path, options);
    if (isWrite(method) && (answer.status === 401 || answer.status === 403)) {
      writeKey.forget();
      const key = await writeKey.ask(answer.status === 401 ? 'missing' : 'invalid');
      if (key === undefined) throw new HttpError('cartelera.writeKey.cancelled', answer.status, answer.json);
      writeKey.set(key);
      continue;
    }
    if (answer.status >= 400) throw refusal(answer);
    return answer;
  }
}

async function send(method: string, path: string, { body, ifMatch, contentType }: Options): Promise<Answer> {
  const headers = new Headers({ Accept: 'application/json' });
  // A form (an upload) sets its own multipart type and boundary.
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers.set('Content-Type', contentType ?? 'application/json');
  if (ifMatch !== undefined) headers.set('If-Match', ifMatch);
  const key = isWrite(method) ? writeKey.get() : undefined;
  if (key !== undefined) headers.set('Authorization', `Bearer ${key}`);
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : form ? body : JSON.stringify(body) });
  } catch {
    throw new HttpError('cartelera.errors.unreachable', 0);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

// "El campo 'duracion' es obligatorio." — one sentence per problem, each naming its field.
const FIELD_SENTENCE = /El campo '([^']+)'.*?(?=\s*El campo '|$)/gs;

/** The service's refusal as react-admin shows it: 400 sentences on their fields, the rest as notifications. */
function refusal({ status, json }: Answer): HttpError {
  const details = (json as ErrorBody | undefined)?.details ?? `HTTP ${status}`;
  if (status === 412) return new HttpError('cartelera.conflict.notification', 412, json);
  if (status === 400) {
    const errors: Record<string, string> = {};
    for (const [sentence, field] of details.matchAll(FIELD_SENTENCE)) {
      if (field !== undefined) errors[field] = errors[field] ? `${errors[field]} ${sentence}` : sentence;
    }
    if (Object.keys(errors).length > 0) return new HttpError(details, 400, { errors: { ...errors, root: { serverError: details } } });
  }
  return new HttpError(details, status, json);
}
