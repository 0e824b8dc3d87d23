/**
 * No shape change inside a published version (issue 32; the spec's "Versioning"): the success response schemas of
 * every /versioned operation, per API version, are committed in src/http/api-snapshot.json (written by
 * `node scripts/api-snapshot.ts`), and src/http/api-snapshot.test.ts compares the served document with it.
 *
 * Breaking, by the spec: a removed endpoint; a removed or renamed response field (a required one becoming optional
 * counts: clients may rely on it); a changed type; a non-nullable field becoming nullable; changed enum values (new
 * values of platform and currency fields excepted). A breaking difference in version V is allowed only when a version
 * change registered `since: V` explains it: that change's downgrade of the new schema has no breaking difference from
 * the snapshot (the change is V's own, and the version before V keeps the old shape; src/http/version-changes.ts).
 */
import type { ApiVersion, JsonSchema, VersionRegistry } from './versioning.ts';

/** Per version, per operation (`GET /versioned/jobs/:id`), per success status: the schema without its prose. */
export type ApiSnapshot = Record<string, Record<string, Record<string, JsonSchema>>>;

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> } | undefined>;
}
export interface ApiDocument {
  paths: Record<string, Record<string, Operation | undefined>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Prose and examples: changing them never breaks a client. */
const PROSE = new Set(['description', 'title', 'examples', 'example', '$comment']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema without prose, keys sorted: what the snapshot keeps. */
export function normalizeSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(normalizeSchema);
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const key of Object.keys(schema).sort()) {
    const value = schema[key];
    if (PROSE.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.keys(value).map((name) => [name, normalizeSchema(value[name])]));
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(normalizeSchema);
    else if (key === 'items' || key === 'additionalProperties' || key === 'not') out[key] = normalizeSchema(value);
    else out[key] = value;
  }
  return out;
}

/** `/versioned/jobs/{id}` as a route key the version registry knows: `GET /versioned/jobs/:id`. */
export function routeKeyOf(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;
}

/** The success schemas of every /versioned operation, as each version serves them. */
export function snapshotOf(document: ApiDocument, versions: readonly ApiVersion[], registry: VersionRegistry): ApiSnapshot {
  const snapshot: ApiSnapshot = {};
  for (const version of versions) {
    const operations: Record<string, Record<string, JsonSchema>> = {};
    for (const path of Object.keys(document.paths).sort()) {
      if (!path.startsWith('/versioned/')) continue;
      for (const method of METHODS) {
        const operation = document.paths[path]?.[method];
        if (operation === undefined) continue;
        const routeKey = routeKeyOf(method, path);
        const statuses: Record<string, JsonSchema> = {};
        const successes = Object.keys(operation.responses ?? {}).filter((s) => s.startsWith('2'));
        for (const status of successes.sort()) {
          const content = operation.responses?.[status]?.content ?? {};
          const schema = Object.values(content)[0]?.schema ?? {};
          // The first success status is the contract's, the one the version changes reshape (src/http/hooks.ts).
          const served = status === successes[0] ? registry.renderSchema(routeKey, version, schema) : schema;
          statuses[status] = normalizeSchema(served) as JsonSchema;
        }
        operations[routeKey] = statuses;
      }
    }
    snapshot[version] = operations;
  }
  return snapshot;
}

/** The snapshot as committed: one line per operation and version, so a diff names the operations that changed. */
export function formatSnapshot(snapshot: ApiSnapshot): string {
  const versions = Object.entries(snapshot).map(([version, operations]) => {
    const lines = Object.entries(operations).map(([routeKey, statuses]) => `  ${JSON.stringify(routeKey)}: ${JSON.stringify(statuses)}`);
    return ` ${JSON.stringify(version)}: {\n${lines.join(',\n')}\n }`;
  });
  return `{\n${versions.join(',\n')}\n}\n`;
}

/** Fields whose enum may gain values in a published version (the spec's exception). */
const OPEN_ENUM_FIELD = /(^|_)(platform|currency)(_|$)|^currencies$/;

interface Shape {
  types: Set<string>;
  enumValues: unknown[] | null;
  /** The non-null alternatives, when there are several (a union of objects). */
  alternatives: Json[];
}

function typesOf(schema: Json): Set<string> {
  const types = new Set<string>();
  const declared = schema.type;
  if (typeof declared === 'string') types.add(declared);
  if (Array.isArray(declared)) for (const t of declared) types.add(String(t));
  if ('const' in schema) types.add(schema.const === null ? 'null' : typeof schema.const);
  if (Array.isArray(schema.enum)) for (const v of schema.enum) types.add(v === null ? 'null' : typeof v);
  if (types.has('integer') && types.has('number')) types.delete('integer');
  return types;
}

/** A schema's types, enum and alternatives, anyOf/oneOf flattened. */
function shapeOf(schema: Json): Shape {
  const alternatives = [...((schema.anyOf ?? schema.oneOf ?? []) as Json[])];
  const own = typesOf(schema);
  const shape: Shape = { types: new Set(own), enumValues: null, alternatives: [] };
  const enums: unknown[] = [];
  let enumerated = alternatives.length === 0 ? 'enum' in schema || 'const' in schema : false;
  if (Array.isArray(schema.enum)) enums.push(...(schema.enum as unknown[]));
  if ('const' in schema) enums.push(schema.const);
  for (const alternative of alternatives) {
    const types = typesOf(alternative);
    for (const t of types) shape.types.add(t);
    if (types.size === 1 && types.has('null')) continue;
    if (Array.isArray(alternative.enum) || 'const' in alternative) {
      enumerated = true;
      if (Array.isArray(alternative.enum)) enums.push(...(alternative.enum as unknown[]));
      if ('const' in alternative) enums.push(alternative.const);
    } else shape.alternatives.push(alternative);
  }
  // An enum only when every non-null alternative is one (a union with an open string is open).
  if (enumerated && shape.alternatives.length === 0) shape.enumValues = enums.filter((v) => v !== null);
  return shape;
}

/** The one non-null schema of a nullable union, to compare its fields. */
function inner(schema: Json, shape: Shape): Json {
  return shape.alternatives.length === 1 && shape.alternatives[0] !== undefined ? shape.alternatives[0] : schema;
}

function compareSchemas(before: unknown, after: unknown, where: string, field: string, problems: string[]): void {
  if (!isObject(before) || !isObject(after)) return;
  const old = shapeOf(before);
  const now = shapeOf(after);
  // An old schema without a type (any value) constrains nothing a client could rely on.
  if (old.types.size > 0 && now.types.size > 0) {
    const added = [...now.types].filter((t) => t !== 'null' && !old.types.has(t) && !(t === 'integer' && old.types.has('number')));
    if (added.length > 0) problems.push(`${where}: type changed from ${[...old.types].join('|')} to ${[...now.types].join('|')}`);
    if (now.types.has('null') && !old.types.has('null')) problems.push(`${where}: became nullable`);
  } else if (old.types.size > 0 && now.types.size === 0 && Object.keys(after).length === 0) {
    problems.push(`${where}: type changed from ${[...old.types].join('|')} to any`);
  }
  if (old.enumValues !== null) {
    const removed = old.enumValues.filter((v) => !(now.enumValues ?? []).includes(v));
    const added = (now.enumValues ?? []).filter((v) => !(old.enumValues ?? []).includes(v));
    if (now.enumValues === null) problems.push(`${where}: enum ${JSON.stringify(old.enumValues)} is no longer an enum`);
    else if (removed.length > 0) problems.push(`${where}: enum values removed or renamed: ${JSON.stringify(removed)}`);
    if (added.length > 0 && !OPEN_ENUM_FIELD.test(field)) problems.push(`${where}: enum values added: ${JSON.stringify(added)}`);
  }
  const a = inner(before, old);
  const b = inner(after, now);
  if (old.alternatives.length > 1 && now.alternatives.length === old.alternatives.length) {
    old.alternatives.forEach((alternative, i) => {
      compareSchemas(alternative, now.alternatives[i], `${where}|${i}`, field, problems);
    });
  }
  compareObjects(a, b, where, problems);
  if (a.items !== undefined) compareSchemas(a.items, b.items, `${where}[]`, field, problems);
  if (isObject(a.additionalProperties)) compareSchemas(a.additionalProperties, b.additionalProperties, `${where}{*}`, field, problems);
}

function compareObjects(before: Json, after: Json, where: string, problems: string[]): void {
  const oldProperties = (before.properties ?? {}) as Json;
  const newProperties = (after.properties ?? {}) as Json;
  const oldRequired = new Set((before.required ?? []) as string[]);
  const newRequired = new Set((after.required ?? []) as string[]);
  for (const name of Object.keys(oldProperties)) {
    const at = `${where}.${name}`;
    if (!(name in newProperties)) {
      problems.push(`${at}: removed or renamed`);
      continue;
    }
    if (oldRequired.has(name) && !newRequired.has(name)) problems.push(`${at}: was always present, now optional`);
    compareSchemas(oldProperties[name], newProperties[name], at, name, problems);
  }
}

/** The breaking differences of one success schema. */
export function breakingChanges(before: JsonSchema, after: JsonSchema, where: string): string[] {
  const problems: string[] = [];
  compareSchemas(before, after, where, '', problems);
  return problems;
}

/**
 * The breaking differences between the snapshot and the current one, those a version change registered for their
 * version explains left out. `current` is built from `document` (passed to re-render schemas through a change).
 */
export function unexplainedBreakingChanges(recorded: ApiSnapshot, document: ApiDocument, registry: VersionRegistry): string[] {
  const problems: string[] = [];
  const versions = Object.keys(recorded) as ApiVersion[];
  const current = snapshotOf(document, versions, registry);
  for (const version of versions) {
    for (const [routeKey, statuses] of Object.entries(recorded[version] ?? {})) {
      const now = current[version]?.[routeKey];
      if (now === undefined) {
        problems.push(`${version} ${routeKey}: endpoint removed`);
        continue;
      }
      for (const [status, schema] of Object.entries(statuses)) {
        const where = `${version} ${routeKey} ${status}`;
        const after = now[status];
        if (after === undefined) {
          problems.push(`${where}: success status removed`);
          continue;
        }
        const found = breakingChanges(schema, after, where);
        if (found.length > 0 && !explainedByVersionChange(registry, version, routeKey, schema, after)) problems.push(...found);
      }
    }
  }
  return problems;
}

/** Whether a change registered for `version` turns the new schema back into the recorded one (no breaking difference). */
function explainedByVersionChange(registry: VersionRegistry, version: ApiVersion, routeKey: string, recorded: JsonSchema, now: JsonSchema): boolean {
  const own = registry.list().filter((change) => change.since === version && change.appliesTo(routeKey));
  if (own.length === 0) return false;
  const downgraded = own.reduce((schema, change) => change.downgradeSchema(schema), now);
  return breakingChanges(recorded, normalizeSchema(downgraded) as JsonSchema, '').length === 0;
}
