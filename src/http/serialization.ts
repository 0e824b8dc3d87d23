/**
 * Response serializers: fast-json-stringify, as Fastify's default compiler uses
 * it (no shared schemas, default options), but built on the first response that
 * needs one instead of for every status of every route at start-up
 * (docs/architecture.md, "Start-up").
 */
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

type Serialize = (data: unknown) => string;

// One serializer per schema object: the HEAD route Fastify adds beside each GET shares its schemas.
const built = new WeakMap<object, Serialize>();

export function buildSerializer(schema: object): Serialize {
  let serialize = built.get(schema);
  if (serialize === undefined) {
    serialize = fastJson(schema as fastJson.AnySchema);
    built.set(schema, serialize);
  }
  return serialize;
}

export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  let serialize: Serialize | undefined;
  return (data: unknown) => {
    serialize ??= buildSerializer(schema as object);
    return serialize(data);
  };
};
