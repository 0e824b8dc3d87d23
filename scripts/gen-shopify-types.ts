/**
 * Writes src/platforms/shopify/generated/: for each GraphQL document of src/platforms/shopify/queries.ts, the type of
 * its answer's `data` (types.ts) and its JSON Schema (schemas.json, for src/platforms/contract-check.ts), both walked
 * from Shopify's published Admin schema (API 2026-10, test/contracts/published.ts) along the document's selections.
 * Run: node scripts/gen-shopify-types.ts (src/platforms/shopify/contract.test.ts fails when the files are stale).
 *
 * The contract checker's policy (src/platforms/contract-check.ts): JSON types, nesting and nullability are kept;
 * `required` is not (every field is optional: a stored record or a partial answer still maps) and neither are enums
 * (Shopify adds values to them without a new version; they are strings here, the mappers read unknown ones as such).
 *
 * A bulk document (`*_BULK_QUERY`, its search `$QUERY` filled in when it runs) is typed as the record the connector
 * puts back together from its JSONL lines (src/platforms/shopify/bulk.ts): the root connection's node, with each nested
 * connection's nodes under `nodes`, the paged queries' shape.
 */
import { writeFileSync } from 'node:fs';
import {
  isEnumType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  OperationTypeNode,
  parse,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { format, resolveConfig } from 'prettier';
import * as queries from '../src/platforms/shopify/queries.ts';
import { readPublishedJson, SHOPIFY_ADMIN_SCHEMA } from '../test/contracts/published.ts';
import { schemaFromIntrospection } from '../test/standins/kit/graphql.ts';

const ROOT = new URL('../', import.meta.url);
export const TYPES_TARGET = new URL('src/platforms/shopify/generated/types.ts', ROOT);
export const SCHEMAS_TARGET = new URL('src/platforms/shopify/generated/schemas.json', ROOT);

type Json = 'string' | 'integer' | 'number' | 'boolean' | 'any';

/** Shopify's scalars by their JSON type (shopify.dev/docs/api/admin-graphql/latest/scalars); another one stops the script. */
const SCALARS: Readonly<Record<string, Json>> = {
  String: 'string',
  ID: 'string',
  Boolean: 'boolean',
  Int: 'integer',
  Float: 'number',
  DateTime: 'string',
  Date: 'string',
  Decimal: 'string',
  Money: 'string',
  URL: 'string',
  HTML: 'string',
  FormattedString: 'string',
  UnsignedInt64: 'string',
  JSON: 'any',
};

/** What an answer holds at one point: a leaf of a JSON type, a list, or an object of the fields selected. */
type Shape = { nullable: boolean } & ({ kind: 'leaf'; json: Json } | { kind: 'list'; of: Shape } | { kind: 'object'; fields: Map<string, Shape> });

const BULK_SUFFIX = '_BULK_QUERY';

class Walker {
  private readonly schema: GraphQLSchema;
  private readonly bulk: boolean;

  constructor(schema: GraphQLSchema, bulk: boolean) {
    this.schema = schema;
    this.bulk = bulk;
  }

  shape(type: GraphQLOutputType, selections: SelectionSetNode | undefined, nullable = true): Shape {
    if (isNonNullType(type)) return this.shape(type.ofType, selections, false);
    if (isListType(type)) return { nullable, kind: 'list', of: this.shape(type.ofType, selections) };
    if (isLeafType(type)) return { nullable, kind: 'leaf', json: leafJson(type) };
    return { nullable, kind: 'object', fields: this.fields(type, selections) };
  }

  /** The fields a selection set picks on `type`, inline fragments' included. */
  fields(type: GraphQLNamedType, set: SelectionSetNode | undefined, into = new Map<string, Shape>()): Map<string, Shape> {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition === undefined ? type : this.schema.getType(selection.typeCondition.name.value);
        if (condition === undefined) throw new Error(`no type ${selection.typeCondition?.name.value ?? ''}`);
        this.fields(condition, selection.selectionSet, into);
        continue;
      }
      if (selection.kind !== Kind.FIELD) throw new Error('queries.ts uses no named fragments');
      if (!isObjectType(type) && !isInterfaceType(type)) throw new Error(`${type.name} has no fields`);
      const field = type.getFields()[selection.name.value];
      if (field === undefined) throw new Error(`${type.name}.${selection.name.value} is not in the published schema`);
      const name = selection.alias?.value ?? selection.name.value;
      const edges = this.bulk ? selection.selectionSet?.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'edges') : undefined;
      into.set(
        name,
        edges?.kind === Kind.FIELD ? this.bulkConnection(this.named(field.type), edges.selectionSet) : this.shape(field.type, selection.selectionSet),
      );
    }
    return into;
  }

  /**
   * The named type of a field's type, by the name its SDL reference prints (`[LineItem!]!`): taken as anything printable,
   * not as graphql-js's classes, whose recursive types overflow typescript-eslint's no-unsafe-class-instance-assignment.
   */
  named(type: { toString(): string } | undefined): GraphQLNamedType {
    const found = this.schema.getType(String(type).replace(/[[\]!]/g, ''));
    if (found === undefined) throw new Error(`no type ${String(type)}`);
    return found;
  }

  /** A bulk export's nested connection, as bulk.ts puts its child lines back: absent, or `{ nodes: [...] }`. */
  bulkConnection(connection: GraphQLNamedType, edges: SelectionSetNode | undefined): Shape {
    const node = this.edgeNode(connection, edges);
    return { nullable: false, kind: 'object', fields: new Map([['nodes', { nullable: false, kind: 'list', of: node }]]) };
  }

  /** The node of `connection { edges { node { … } } }`. */
  edgeNode(connection: GraphQLNamedType, edges: SelectionSetNode | undefined): Shape {
    if (!isObjectType(connection)) throw new Error(`${connection.name} is not a connection`);
    const edgeType = this.named(connection.getFields().edges?.type);
    const node = edges?.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'node');
    const nodeField = isObjectType(edgeType) ? edgeType.getFields().node : undefined;
    if (node?.kind !== Kind.FIELD || nodeField === undefined) throw new Error(`a bulk query selects ${connection.name}'s edges { node }`);
    return this.shape(nodeField.type, node.selectionSet);
  }
}

function leafJson(type: GraphQLNamedType): Json {
  if (isEnumType(type)) return 'string';
  const json = isScalarType(type) ? SCALARS[type.name] : undefined;
  if (json === undefined) throw new Error(`scalar ${type.name}: add its JSON type to SCALARS`);
  return json;
}

/** A document's entry: its name (the operation's, or the bulk query's export name) and the shape of what it answers. */
function entryOf(schema: GraphQLSchema, exportName: string, text: string): { name: string; shape: Shape } {
  const bulk = exportName.endsWith(BULK_SUFFIX);
  const document = parse(bulk ? text.replace('$QUERY', '"x"') : text);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operation === undefined) throw new Error(`${exportName} has no operation`);
  const root = operation.operation === OperationTypeNode.MUTATION ? schema.getMutationType() : schema.getQueryType();
  if (root === null || root === undefined) throw new Error(`the schema has no ${operation.operation} type`);
  const walker = new Walker(schema, bulk);
  if (!bulk) {
    const name = operation.name?.value;
    if (name === undefined) throw new Error(`${exportName}: name its operation`);
    return { name, shape: { nullable: false, kind: 'object', fields: walker.fields(root, operation.selectionSet) } };
  }
  const [field] = operation.selectionSet.selections;
  if (field?.kind !== Kind.FIELD) throw new Error(`${exportName} selects one connection`);
  const connection = walker.named(root.getFields()[field.name.value]?.type);
  const edges = field.selectionSet?.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'edges');
  const node = walker.edgeNode(connection, edges?.kind === Kind.FIELD ? edges.selectionSet : undefined);
  const pascal = exportName
    .toLowerCase()
    .replace(/_query$/, '')
    .replace(/(^|_)([a-z])/g, (_, _sep: string, letter: string) => letter.toUpperCase());
  return { name: pascal, shape: { ...node, nullable: false } };
}

function typeText(shape: Shape): string {
  const base =
    shape.kind === 'leaf'
      ? shape.json === 'any'
        ? 'unknown'
        : shape.json === 'integer'
          ? 'number'
          : shape.json
      : shape.kind === 'list'
        ? `${wrapped(typeText(shape.of))}[]`
        : `{ ${[...shape.fields].map(([name, field]) => `${name}?: ${typeText(field)};`).join(' ')} }`;
  return shape.nullable && base !== 'unknown' ? `${base} | null` : base;
}

const wrapped = (text: string): string => (text.includes('|') ? `(${text})` : text);

function schemaOf(shape: Shape): object {
  const nullable = (type: string): string | string[] => (shape.nullable ? [type, 'null'] : type);
  if (shape.kind === 'leaf') return shape.json === 'any' ? {} : { type: nullable(shape.json) };
  if (shape.kind === 'list') return { type: nullable('array'), items: schemaOf(shape.of) };
  return { type: nullable('object'), properties: Object.fromEntries([...shape.fields].map(([name, field]) => [name, schemaOf(field)])) };
}

/** Both files' text, from the published schema and queries.ts. */
export async function generate(): Promise<{ types: string; schemas: string }> {
  const schema = schemaFromIntrospection(await readPublishedJson(SHOPIFY_ADMIN_SCHEMA));
  const entries = Object.entries(queries)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([exportName, text]) => ({ exportName, ...entryOf(schema, exportName, text) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const types = [
    "// Written by scripts/gen-shopify-types.ts from Shopify's published Admin schema (API 2026-10) and queries.ts: do not edit.",
    "import * as queries from '../queries.ts';",
    ...entries.map(
      ({ exportName, name, shape }) =>
        `/** What ${exportName} answers${exportName.endsWith(BULK_SUFFIX) ? ' (a record put back together from its lines)' : ''}. */\nexport type ${name} = ${typeText(shape)};`,
    ),
    `/** Each document's answer type, by name (the entries of schemas.json). */\nexport interface ShopifyAnswers { ${entries.map(({ name }) => `${name}: ${name};`).join(' ')} }`,
    `/** Each document, by the name of its answer's type. */\nexport const DOCUMENTS = { ${entries.map(({ name, exportName }) => `${name}: queries.${exportName},`).join(' ')} } as const;`,
  ].join('\n\n');
  const config = await resolveConfig(TYPES_TARGET);
  const schemas = {
    entries: Object.fromEntries(entries.map(({ name }) => [name, { $ref: `#/definitions/${name}` }])),
    definitions: Object.fromEntries(entries.map(({ name, shape }) => [name, schemaOf(shape)])),
  };
  return {
    types: await format(`${types}\n`, { ...config, parser: 'typescript' }),
    schemas: `${JSON.stringify(schemas, null, 2)}\n`,
  };
}

if (import.meta.filename === process.argv[1]) {
  const { types, schemas } = await generate();
  writeFileSync(TYPES_TARGET, types);
  writeFileSync(SCHEMAS_TARGET, schemas);
  process.stdout.write(`wrote ${TYPES_TARGET.pathname} and ${SCHEMAS_TARGET.pathname}\n`);
}
