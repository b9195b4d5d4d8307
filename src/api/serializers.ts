import fastJsonStringify from 'fast-json-stringify';
import { isCanonicalFecha } from '../catalogue/fecha.js';

type Serializer = (data: unknown) => string;

const compiled = new Map<string, Serializer>();

/**
 * Fastify's serializer compiler, keeping the serializer of each response schema (by its content:
 * Fastify hands each app its own copy) for the life of the process, so that every app built from
 * the same declarations compiles each once (one app in a service; the tests build hundreds in a
 * process, and compiling serializers was about half of each build). The serializer checks `anyOf`
 * branches (a participation's evento) with Ajv, which must know the `fecha` format.
 */
export function responseSerializer({ schema }: { schema: unknown }): Serializer {
  const key = JSON.stringify(schema);
  let serialize = compiled.get(key);
  if (!serialize) compiled.set(key, (serialize = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0], { ajv: { formats: { fecha: isCanonicalFecha } } }) as Serializer));
  return serialize;
}
