import { isIP } from 'node:net';
import { Ajv } from 'ajv';
import { Type, type Static } from 'typebox';
import { timeZoneNamed } from './catalogue/zone.js';

/** A write key's optional name (`ana:<key>`): letters, digits, spaces, `.`, `_` and `-`. */
const KEY_NAME = /^[\p{L}\p{N}._ -]{1,40}$/u;
/** A write key: an RFC 6750 bearer token of at least 16 characters. */
const KEY = /^[A-Za-z0-9._~+/-]{16,}=*$/;

/** Every setting the service reads from its environment, declared once (docs/configuration.md). */
export const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  DATABASE_URL: Type.String({ minLength: 1, default: 'sqlite:./data/cartelera.sqlite' }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  /**
   * SQLite: `full` syncs each commit to disk before its answer (one sync shared by the writes
   * that commit together); `normal` leaves the sync to checkpoints, faster, and a power cut or
   * OS crash can lose the last acknowledged writes.
   */
  SQLITE_SYNCHRONOUS: Type.Enum(['full', 'normal'], { default: 'full' }),
  /** PostgreSQL: connections each process may hold. */
  DATABASE_POOL_MAX: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  /** PostgreSQL: statements running longer are cancelled (the request answers 503, like an outage). */
  DATABASE_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 5000 }),
  /** How long start-up waits for the database to answer before giving up. */
  DATABASE_WAIT_MS: Type.Integer({ minimum: 0, default: 30000 }),
  /** Whether `GET /metrics` exists. */
  METRICS_ENABLED: Type.Boolean({ default: false }),
  /** When set, `GET /metrics` asks for `Authorization: Bearer <token>`. */
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
  /** Origins browsers may call from: `*`, or a comma-separated list (`https://a.example,https://b.example`). */
  CORS_ORIGIN: Type.String({ minLength: 1, default: '*' }),

  /** When set, writes (POST, PUT, PATCH, DELETE) need `Authorization: Bearer <one of these keys>` (each checked by crossChecks). */
  API_KEYS: Type.Optional(Type.String({ minLength: 1 })),
  /** Requests per minute one client address may make; 0 is no limit. */
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 0, default: 0 }),
  /** Proxies whose X-Forwarded-For names the client: comma-separated addresses or CIDR ranges. */
  TRUST_PROXY: Type.Optional(Type.String({ minLength: 1 })),
  /** Security headers (helmet) on every answer. */
  SECURITY_HEADERS: Type.Boolean({ default: true }),
  /** A connection with no traffic either way for this long is closed; 0 is never. */
  CONNECTION_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 60000 }),
  /** A request whose headers and body have not all arrived in this time is answered 408 and closed; 0 is never. */
  REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 30000 }),
  /** The same for the request line and headers alone (and for a new connection that sends nothing). */
  HEADERS_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10000 }),
  /** An idle keep-alive connection is closed after this long. */
  KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 72000 }),
  /** Requests one keep-alive connection may carry; 0 is no limit. */
  MAX_REQUESTS_PER_SOCKET: Type.Integer({ minimum: 0, default: 0 }),
  /** Open connections at most; further ones are closed at once. 0 is no cap. */
  MAX_CONNECTIONS: Type.Integer({ minimum: 0, default: 1000 }),
  /** Request line and headers together at most this many bytes (431 otherwise). */
  MAX_HEADER_BYTES: Type.Integer({ minimum: 4096, maximum: 1048576, default: 16384 }),
  /** Load shedding: answer 503 while the event loop's mean delay exceeds this; 0 is off. */
  UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: Type.Integer({ minimum: 0, default: 1000 }),
  /** Load shedding: answer 503 while the V8 heap in use exceeds this; 0 is off. */
  UNDER_PRESSURE_MAX_HEAP_USED_BYTES: Type.Integer({ minimum: 0, default: 0 }),
  /** Load shedding: answer 503 while the resident set size exceeds this; 0 is off. */
  UNDER_PRESSURE_MAX_RSS_BYTES: Type.Integer({ minimum: 0, default: 0 }),
  /** Changes older than this many days are pruned from the change log (hourly, in small batches). */
  CHANGES_KEEP_DAYS: Type.Integer({ minimum: 1, maximum: 36500, default: 365 }),
  /**
   * Live change streams (GET /cambios as text/event-stream) one process keeps open; more get 503.
   * Half of MAX_CONNECTIONS's default: streams never take every connection from the API's requests.
   */
  CHANGES_MAX_STREAMS: Type.Integer({ minimum: 0, default: 500 }),
  /** A live change stream whose reader takes nothing for this many seconds is disconnected (it resumes from its last id). */
  CHANGES_STALL_SECONDS: Type.Integer({ minimum: 1, maximum: 3600, default: 30 }),
  /** The calendar's name in calendar apps (X-WR-CALNAME of /eventosUrbanos.ics). */
  CALENDAR_NAME: Type.String({ minLength: 1, default: 'Cartelera' }),
  /** The domain of the calendar's event UIDs (eventoUrbano-<id>@<domain>): keep it once published. */
  CALENDAR_DOMAIN: Type.String({ pattern: '^[A-Za-z0-9.-]+$', default: 'cartelera', description: 'letters, digits, dots and hyphens (cartelera.example.org)' }),
  /** The city's time zone, where the catalogue's events happen (contract, "Dates and times"): an IANA zone. */
  TIMEZONE: Type.String({ minLength: 1, default: 'UTC' }),
  /** The service's public address (https://cartelera.example.org), for absolute links (the JSON-LD's): default, http:// and the request's Host. */
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s/?#]+(/[^\\s?#]*)?$', description: 'an http:// or https:// address, such as https://cartelera.example.org' })),
  /** The most bytes one upload to POST /importar may hold, all its files together. */
  IMPORT_MAX_BYTES: Type.Integer({ minimum: 1, default: 10 * 1024 * 1024 }),
});
export type Config = Static<typeof ConfigSchema>;

// Ajv coerces only "true" and "false" to booleans; "1" and "0" are the other usual spellings.
const BOOLEAN_SPELLINGS: Record<string, string> = { '1': 'true', '0': 'false' };
type SettingSchema = { type?: string; minimum?: number; maximum?: number; enum?: string[]; description?: string };
const settings = ConfigSchema.properties as Record<string, SettingSchema>;
const isBoolean = (name: string) => settings[name]?.type === 'boolean';
/** Settings whose values are secrets: a refusal names them, never quotes them. */
const SECRETS = new Set(['API_KEYS', 'METRICS_TOKEN', 'DATABASE_URL']);

const validate = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true }).compile(ConfigSchema);

/** A configuration the service cannot start with: one sentence per setting, what is wrong and what is expected. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join(' '));
  }
}

/** Reads the config from `env`; unset and empty variables take their defaults. Throws a ConfigError. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config: Record<string, string> = {};
  for (const name of Object.keys(ConfigSchema.properties)) {
    const value = env[name];
    if (value !== undefined && value !== '') config[name] = isBoolean(name) ? (BOOLEAN_SPELLINGS[value] ?? value) : value;
  }
  const refused = validate(config) ? new Set<string>() : new Set((validate.errors ?? []).map((e) => e.instancePath.slice(1)));
  const problems = [...refused].map((name) => refusal(name, env[name] ?? '', expected(settings[name] ?? {})));
  // Every setting's problems are said at once, those its schema cannot see too.
  problems.push(...valueChecks(config, refused));
  if (problems.length > 0) throw new ConfigError(problems);
  const valid = config as unknown as Config;
  const conflicts = crossChecks(valid);
  if (conflicts.length > 0) throw new ConfigError(conflicts);
  return { ...valid, TIMEZONE: timeZoneNamed(valid.TIMEZONE) ?? valid.TIMEZONE, ...(valid.PUBLIC_URL !== undefined && { PUBLIC_URL: valid.PUBLIC_URL.replace(/\/+$/, '') }) };
}

function refusal(name: string, value: string, wanted: string): string {
  return `${name} ${SECRETS.has(name) ? 'is not valid' : `is '${value}'`}; expected ${wanted}.`;
}

/** What a setting takes, read off its schema. */
function expected(schema: SettingSchema): string {
  if (schema.description) return schema.description;
  if (schema.enum) return `one of ${schema.enum.join(', ')}`;
  if (schema.type === 'boolean') return 'true or false (or 1 or 0)';
  if (schema.type === 'integer') {
    if (schema.maximum !== undefined) return `a whole number from ${schema.minimum ?? 0} to ${schema.maximum}`;
    return `a whole number of at least ${schema.minimum ?? 0}`;
  }
  return 'a value';
}

/** What a text setting's schema cannot say of its value; `refused`: the settings already refused. */
function valueChecks(config: Record<string, unknown>, refused: Set<string>): string[] {
  const text = (name: string) => (typeof config[name] === 'string' && !refused.has(name) ? config[name] : undefined);
  const problems: string[] = [];
  const proxies = text('TRUST_PROXY')?.split(',').map((p) => p.trim()) ?? [];
  for (const proxy of proxies.filter((p) => !isProxyAddress(p))) {
    problems.push(`TRUST_PROXY: '${proxy}' is not an IP address, a CIDR range, loopback, linklocal or uniquelocal.`);
  }
  const keys = text('API_KEYS');
  if (keys !== undefined) problems.push(...writeKeyProblems(keys));
  const zone = text('TIMEZONE');
  if (zone !== undefined && timeZoneNamed(zone) === undefined) {
    problems.push(refusal('TIMEZONE', zone, 'an IANA time zone, such as America/Argentina/Buenos_Aires, Europe/Madrid or UTC'));
  }
  return problems;
}

/** What no one setting says alone. */
function crossChecks(config: Config): string[] {
  // Node's HTTP server refuses this combination.
  return config.REQUEST_TIMEOUT_MS > 0 && config.HEADERS_TIMEOUT_MS > config.REQUEST_TIMEOUT_MS ? ['HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS.'] : [];
}

/** Each of `API_KEYS`' comma-separated entries, `key` or `name:key`; the sentences never quote a key. */
function writeKeyProblems(setting: string): string[] {
  return setting.split(',').flatMap((entry, i) => {
    const colon = entry.indexOf(':');
    const [name, key] = colon === -1 ? [undefined, entry.trim()] : [entry.slice(0, colon).trim(), entry.slice(colon + 1).trim()];
    const which = `API_KEYS: entry ${i + 1}`;
    if (name !== undefined && !KEY_NAME.test(name)) return [`${which} has a name that is not 1 to 40 letters, digits, spaces, dots, underscores or hyphens before its colon.`];
    if (KEY.test(key)) return [];
    const length = key.replace(/=+$/, '').length;
    const wrong = length < 16 ? `has a key of ${length} characters` : 'has a key with characters a key cannot hold';
    return [`${which} ${wrong}; a key needs at least 16 characters of A-Z a-z 0-9 - . _ ~ + / (then any =), after an optional name and a colon (ana:<key>).`];
  });
}

function isProxyAddress(value: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(value)) return true;
  const [address = '', bits, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
}
