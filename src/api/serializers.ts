import fastJsonStringify from 'fast-json-stringify';
import { isCanonicalFecha } from '../catalogue/fecha.js';

type Serializer = (data: unknown) => string;

const compiled = new WeakMap<object, Serializer>();

/**
 * Fastify's serializer compiler, keeping each response schema's serializer for the life of the
 * process: schemas are declared once, so every app built from them compiles each once (one app
 * in a service; the tests build hundreds in a process, and compiling serializers was about half
 * of each build). The serializer checks `anyOf` branches (a participation's evento) with Ajv,
 * which must know the `fecha` format.
 */
export function responseSerializer({ schema }: { schema: unknown }): Serializer {
  const key = schema as object;
  let serialize = compiled.get(key);
  if (!serialize) compiled.set(key, (serialize = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0], { ajv: { formats: { fecha: isCanonicalFecha } } }) as Serializer));
  return serialize;
}
