import { Ajv } from 'ajv';
import { Type, type Static } from 'typebox';

/** Every setting the service reads from its environment, declared once (README, "Configuration"). */
export const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  DATABASE_URL: Type.String({ minLength: 1, default: 'sqlite:./data/cartelera.sqlite' }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  /** PostgreSQL: connections each process may hold. */
  DATABASE_POOL_MAX: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  /** PostgreSQL: statements running longer are cancelled (the request answers 500). */
  DATABASE_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 5000 }),
  /** How long start-up waits for the database to answer before giving up. */
  DATABASE_WAIT_MS: Type.Integer({ minimum: 0, default: 30000 }),
  /** Whether `GET /metrics` exists. */
  METRICS_ENABLED: Type.Boolean({ default: false }),
  /** When set, `GET /metrics` asks for `Authorization: Bearer <token>`. */
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
  /** Origins browsers may call from: `*`, or a comma-separated list (`https://a.example,https://b.example`). */
  CORS_ORIGIN: Type.String({ minLength: 1, default: '*' }),
});
export type Config = Static<typeof ConfigSchema>;

// Ajv coerces only "true" and "false" to booleans; "1" and "0" are the other usual spellings.
const BOOLEAN_SPELLINGS: Record<string, string> = { '1': 'true', '0': 'false' };
const isBoolean = (name: string) => (ConfigSchema.properties as Record<string, { type?: string }>)[name]?.type === 'boolean';

const validate = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true }).compile(ConfigSchema);

/** Reads the config from `env`; unset and empty variables take their defaults. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config: Record<string, string> = {};
  for (const name of Object.keys(ConfigSchema.properties)) {
    const value = env[name];
    if (value !== undefined && value !== '') config[name] = isBoolean(name) ? (BOOLEAN_SPELLINGS[value] ?? value) : value;
  }
  if (!validate(config)) {
    const problems = validate.errors?.map((e) => `${e.instancePath.slice(1) || 'config'} ${e.message}`);
    throw new Error(`Invalid configuration: ${problems?.join('; ')}`);
  }
  return config as unknown as Config;
}
