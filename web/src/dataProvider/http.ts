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
  /** Called as a form's bytes go out, from 0 to 1 (fetch cannot tell: such a request goes by XMLHttpRequest). */
  onProgress?: (sent: number) => void;
  /** The request goes on if the page is closed meanwhile (small bodies only: the browser allows 64 KiB). */
  keepalive?: boolean;
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

async function send(method: string, path: string, { body, ifMatch, contentType, onProgress, keepalive }: Options): Promise<Answer> {
  const headers = new Headers({ Accept: 'application/json' });
  // A form (an upload) sets its own multipart type and boundary.
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers.set('Content-Type', contentType ?? 'application/json');
  if (ifMatch !== undefined) headers.set('If-Match', ifMatch);
  const key = isWrite(method) ? writeKey.get() : undefined;
  if (key !== undefined) headers.set('Authorization', `Bearer ${key}`);
  let response: { status: number; headers: Headers; text: string };
  try {
    response =
      form && onProgress
        ? await sendForm(method, path, headers, body, onProgress)
        : await fetch(path, { method, headers, keepalive, body: body === undefined ? undefined : form ? body : JSON.stringify(body) }).then(async (r) => ({
            status: r.status,
            headers: r.headers,
            text: await r.text(),
          }));
  } catch {
    throw new HttpError('cartelera.errors.unreachable', 0);
  }
  const { text } = response;
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A form sent by XMLHttpRequest, whose upload reports its progress. */
function sendForm(method: string, path: string, headers: Headers, form: FormData, onProgress: (sent: number) => void) {
  return new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    headers.forEach((value, name) => xhr.setRequestHeader(name, value));
    xhr.upload.addEventListener('progress', (event) => event.lengthComputable && onProgress(event.loaded / event.total));
    xhr.addEventListener('load', () => {
      const answerHeaders = new Headers();
      for (const line of xhr.getAllResponseHeaders().trim().split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon > 0) answerHeaders.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      resolve({ status: xhr.status, headers: answerHeaders, text: xhr.responseText });
    });
    xhr.addEventListener('error', () => reject(new Error('unreachable')));
    xhr.send(form);
  });
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
