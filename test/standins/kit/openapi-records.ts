/**
 * A stand-in's records completed from the platform's OpenAPI 3.0 description: each property a component schema
 * requires and the record leaves out gets the schema's empty value (null when nullable, [] for an array, {} for a
 * free-form object, false for a boolean), and each object the record holds is completed by its own schema. A stand-in
 * then writes only the fields that mean something; its answers are still validated whole (./openapi.ts), so a required
 * field without an empty value (an id, an amount) must still be written.
 */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export type CompleteRecord = (component: string, record: Json) => Json;

/** The completer of `document`'s components (`#/components/schemas/<component>`). */
export function recordCompleter(document: Json): CompleteRecord {
  const components = isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {};
  /** A schema through its `$ref`, or its only anyOf branch. */
  const resolve = (schema: unknown): Json => {
    if (!isObject(schema)) return {};
    if (typeof schema.$ref === 'string') return resolve(components[schema.$ref.replace('#/components/schemas/', '')]);
    return Array.isArray(schema.anyOf) && schema.anyOf.length === 1 ? resolve(schema.anyOf[0]) : schema;
  };
  const empty = (schema: unknown): unknown => {
    if (isObject(schema) && schema.nullable === true) return null;
    const resolved = resolve(schema);
    if (resolved.type === 'array') return [];
    if (resolved.type === 'boolean') return false;
    return resolved.type === 'object' && !isObject(resolved.properties) ? {} : undefined;
  };
  const complete = (schema: unknown, record: Json): Json => {
    const resolved = resolve(schema);
    const properties = isObject(resolved.properties) ? resolved.properties : {};
    const out: Json = { ...record };
    for (const [name, value] of Object.entries(out)) if (isObject(value) && name in properties) out[name] = complete(properties[name], value);
    for (const name of Array.isArray(resolved.required) ? resolved.required : []) {
      const value = typeof name === 'string' && !(name in out) ? empty(properties[name]) : undefined;
      if (typeof name === 'string' && value !== undefined) out[name] = value;
    }
    return out;
  };
  return (component, record) => {
    if (!(component in components)) throw new Error(`the description has no component ${component}`);
    return complete(components[component], record);
  };
}
