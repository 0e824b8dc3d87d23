/**
 * `node scripts/shopify-simulator-schema.ts`: writes packages/sandbox/src/simulators/shopify/schema.graphql, the part of
 * Shopify's published Admin GraphQL schema (API 2026-10, @shopify/dev-mcp's introspection result, fetched and
 * digest-checked by test/contracts/published.ts) that the SHOPIFY connector's queries (src/platforms/shopify/queries.ts)
 * select: each type they reach with the fields and arguments they use, enums whole, the interfaces of the types kept.
 * The simulator executes its queries against this schema, so a query the connector starts sending fails there until
 * this is run again (and the simulator serves the new fields).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  astFromValue,
  buildClientSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  OperationTypeNode,
  parse,
  print,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLNamedType,
  type IntrospectionQuery,
} from 'graphql';
import * as queries from '../src/platforms/shopify/queries.ts';
import { readPublishedJson, SHOPIFY_ADMIN_SCHEMA } from '../test/contracts/published.ts';

const BUILT_IN = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);
const TARGET = path.resolve(import.meta.dirname, '../packages/sandbox/src/simulators/shopify/schema.graphql');

const raw = (await readPublishedJson(SHOPIFY_ADMIN_SCHEMA)) as { data: IntrospectionQuery };
const published = buildClientSchema(raw.data);

/** Type name → field name → argument names used. */
const fields = new Map<string, Map<string, Set<string>>>();
const types = new Set<string>();
/**
 * Records a type in use, by the name of its named type: a type prints as its SDL reference (`[LineItem!]!`), so
 * stripping the list and non-null marks leaves the name. Taken as anything printable, not as graphql-js's classes,
 * whose recursive types overflow typescript-eslint's no-unsafe-class-instance-assignment.
 */
const use = (type: { toString(): string } | null | undefined): void => {
  if (type !== null && type !== undefined) types.add(type.toString().replace(/[[\]!]/g, ''));
};
const useField = (typeName: string, field: string, args: readonly string[]): void => {
  const byField = fields.get(typeName) ?? new Map<string, Set<string>>();
  const used = byField.get(field) ?? new Set<string>();
  for (const arg of args) used.add(arg);
  byField.set(field, used);
  fields.set(typeName, byField);
};

for (const [name, text] of Object.entries(queries)) {
  if (typeof text !== 'string') continue;
  // A bulk query's search is filled in when it runs: any string stands for it here.
  const document = parse(text.replace('$QUERY', '"x"'));
  const typeInfo = new TypeInfo(published);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      OperationDefinition(node) {
        const root = node.operation === OperationTypeNode.MUTATION ? published.getMutationType() : published.getQueryType();
        if (root !== null && root !== undefined) use(root);
      },
      VariableDefinition() {
        const type = typeInfo.getInputType();
        if (type !== null && type !== undefined) use(type);
      },
      Field(node) {
        const parent = typeInfo.getParentType();
        const def: GraphQLField<unknown, unknown> | null | undefined = typeInfo.getFieldDef();
        if (parent === null || parent === undefined || def === null || def === undefined)
          throw new Error(`${name}: ${node.name.value} is not in the published schema`);
        use(parent);
        useField(
          parent.name,
          def.name,
          (node.arguments ?? []).map((arg) => arg.name.value),
        );
        use(def.type);
        for (const arg of node.arguments ?? []) {
          const argDef = def.args.find((a) => a.name === arg.name.value);
          if (argDef !== undefined) use(argDef.type);
        }
      },
      InlineFragment() {
        const type = typeInfo.getType();
        use(type);
      },
    }),
  );
}

// The mutations' input types are kept whole, with every input, enum and scalar they reach: variables are checked against them.
const inputs = [...types].filter((name) => isInputObjectType(published.getType(name)));
for (let name = inputs.pop(); name !== undefined; name = inputs.pop()) {
  const type = published.getType(name);
  if (!isInputObjectType(type)) continue;
  for (const field of Object.values(type.getFields())) {
    const named = getNamedType(field.type);
    if (isInputObjectType(named) && !types.has(named.name)) inputs.push(named.name);
    use(named);
  }
}

/** An input type's fields with their defaults, without descriptions. */
function printInputFields(type: GraphQLInputObjectType): string[] {
  return Object.values(type.getFields()).map((field) => {
    const fallback = field.defaultValue === undefined ? null : (astFromValue(field.defaultValue, field.type) ?? null);
    return `  ${field.name}: ${String(field.type)}${fallback === null ? '' : ` = ${print(fallback)}`}`;
  });
}

// An interface kept has the fields its kept implementations select that it declares; each implementation has them all.
for (const name of types) {
  const type = published.getType(name);
  if (!isInterfaceType(type)) continue;
  const implementations = published.getPossibleTypes(type).filter((t) => types.has(t.name));
  for (const implementation of implementations)
    for (const field of fields.get(implementation.name)?.keys() ?? []) if (type.getFields()[field] !== undefined) useField(type.name, field, []);
  for (const field of fields.get(type.name)?.keys() ?? []) for (const implementation of implementations) useField(implementation.name, field, []);
}

function printFields(type: GraphQLNamedType): string[] {
  if (!isObjectType(type) && !isInterfaceType(type)) return [];
  const used = fields.get(type.name) ?? new Map<string, Set<string>>();
  return [...used.keys()].sort().map((fieldName) => {
    const field = type.getFields()[fieldName];
    if (field === undefined) throw new Error(`${type.name}.${fieldName} is not published`);
    const args = field.args
      .filter((arg) => used.get(fieldName)?.has(arg.name) === true)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((arg) => `${arg.name}: ${String(arg.type)}`);
    return `  ${field.name}${args.length === 0 ? '' : `(${args.join(', ')})`}: ${String(field.type)}`;
  });
}

const out: string[] = [
  "# Part of Shopify's Admin GraphQL schema, API 2026-10, as Shopify publishes it (@shopify/dev-mcp, ISC licence):",
  '# the types and fields the SHOPIFY connector selects. Written by scripts/shopify-simulator-schema.ts; do not edit.',
  'schema {',
  '  query: QueryRoot',
  '  mutation: Mutation',
  '}',
];
for (const name of [...types].sort()) {
  const type = published.getType(name);
  if (type === undefined || BUILT_IN.has(name)) continue;
  if (isScalarType(type)) out.push(`scalar ${name}`);
  else if (isEnumType(type)) out.push(`enum ${name} {`, ...type.getValues().map((value) => `  ${value.name}`), '}');
  else if (isInputObjectType(type)) out.push(`input ${name}${type.isOneOf ? ' @oneOf' : ''} {`, ...printInputFields(type), '}');
  else if (isObjectType(type)) {
    const interfaces = type.getInterfaces().filter((i) => types.has(i.name));
    out.push(`type ${name}${interfaces.length === 0 ? '' : ` implements ${interfaces.map((i) => i.name).join(' & ')}`} {`, ...printFields(type), '}');
  } else if (isInterfaceType(type)) out.push(`interface ${name} {`, ...printFields(type), '}');
}
writeFileSync(TARGET, `${out.join('\n')}\n`);
process.stdout.write(`wrote ${TARGET}\n`);
