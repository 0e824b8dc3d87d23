/**
 * Cuts JSON Schemas of a platform's answers out of its published contract, along the connector's own TypeScript types
 * (src/platforms/<name>/types.ts or native.ts), for the answer validators of src/platforms/contract-check.ts. One
 * cutter for every contract family: an adapter tells what the contract says at a point (an object with its
 * properties, an array, a scalar), whether the contract is OpenAPI (Xero) or XML Schema (QuickBooks Online).
 *
 * Walking the contract and the types together does two jobs at once:
 * - the schemas hold only the fields the connector reads, so a platform adding or changing a field we ignore never
 *   fails a sync;
 * - the types are checked against the contract: a field they declare that the contract lacks, or declares with
 *   another JSON type, is a problem (the generator stops) unless the platform's script lists it with its reason.
 * Kept: JSON types, nesting and nullability. Dropped: enums (platforms add values without a new contract version; the
 * mappers turn unknown values into `unknown`), formats, `required` (answers leave out what is empty) and lengths.
 * The types may be a file or text emitted from the contract along a selection of fields (./contract-types.ts).
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the contract says at one point; `S` is the adapter's own handle on a schema. */
export type Described<S> = { nullable: boolean } & (
  | { kind: 'object'; component: string | null; properties: ReadonlyMap<string, S> }
  | { kind: 'array'; items: S }
  | { kind: 'scalar'; type: string | null; values?: readonly string[]; component?: string }
);

export interface ContractAdapter<S> {
  describe(schema: S): Described<S>;
}

interface ConnectorTypes {
  interfaces: Map<string, Map<string, ts.TypeNode>>;
  aliases: Map<string, ts.TypeNode>;
}

/** Types emitted rather than read from a file (./contract-types.ts): their text, and a name for messages. */
export interface TypesText {
  name: string;
  text: string;
}

/** The interfaces (with inherited members) and type aliases of a connector's types file. */
export function readTypes(types: URL | TypesText): ConnectorTypes {
  const file = types instanceof URL ? { name: types.pathname, text: readFileSync(types, 'utf8') } : types;
  const source = ts.createSourceFile(file.name, file.text, ts.ScriptTarget.Latest, true);
  const declared = new Map<string, ts.InterfaceDeclaration>();
  const aliases = new Map<string, ts.TypeNode>();
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement)) declared.set(statement.name.text, statement);
    if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement.type);
  }
  const membersOf = (name: string): Map<string, ts.TypeNode> => {
    const node = declared.get(name);
    if (node === undefined) throw new Error(`${file.name} has no interface ${name}`);
    const members = new Map<string, ts.TypeNode>();
    for (const clause of node.heritageClauses ?? []) {
      for (const parent of clause.types) for (const [k, v] of membersOf(parent.expression.getText())) members.set(k, v);
    }
    return new Map([...members, ...literalMembers(node.members)]);
  };
  const interfaces = new Map<string, Map<string, ts.TypeNode>>();
  for (const name of declared.keys()) interfaces.set(name, membersOf(name));
  return { interfaces, aliases };
}

function literalMembers(members: ts.NodeArray<ts.TypeElement>): Map<string, ts.TypeNode> {
  const found = new Map<string, ts.TypeNode>();
  for (const member of members) {
    if (ts.isPropertySignature(member) && member.type !== undefined) found.set(member.name.getText(), member.type);
  }
  return found;
}

/** The JSON type a field's TypeScript type stands for. */
function jsonTypeOf(node: ts.TypeNode): string {
  if (node.kind === ts.SyntaxKind.StringKeyword) return 'string';
  if (node.kind === ts.SyntaxKind.NumberKeyword) return 'number';
  if (node.kind === ts.SyntaxKind.BooleanKeyword) return 'boolean';
  if (ts.isUnionTypeNode(node) && node.types.every((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal))) return 'string';
  return node.getText();
}

/** `T | null` → `T`: the contract says whether null may come (its nullable), the types say so with `| null`. */
function withoutNull(node: ts.TypeNode): ts.TypeNode {
  if (!ts.isUnionTypeNode(node)) return node;
  const rest = node.types.filter((t) => !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword));
  return rest.length === 1 && rest[0] !== undefined && rest.length < node.types.length ? rest[0] : node;
}

export class ContractCutter<S> {
  readonly definitions: Record<string, Json> = {};
  readonly problems: string[] = [];
  private readonly differencesSeen = new Set<string>();
  private readonly types: ConnectorTypes;
  private readonly adapter: ContractAdapter<S>;
  private readonly knownDifferences: Readonly<Record<string, string>>;

  /** `knownDifferences`: `Type.field` the contract lacks, each with its reason; any other is a problem. */
  constructor(adapter: ContractAdapter<S>, types: URL | TypesText, knownDifferences: Readonly<Record<string, string>>) {
    this.adapter = adapter;
    this.knownDifferences = knownDifferences;
    this.types = readTypes(types);
  }

  membersOf(type: string): Map<string, ts.TypeNode> {
    const members = this.types.interfaces.get(type);
    if (members === undefined) throw new Error(`the types file has no interface ${type}`);
    return members;
  }

  /** A definition named after the contract component and the connector's type (one component, several views). */
  named(component: string, schema: S, type: string): Json {
    const key = `${component}.${type}`;
    if (this.definitions[key] === undefined) {
      this.definitions[key] = {}; // taken before walking: recursive types refer to themselves
      const described = this.adapter.describe(schema);
      if (described.kind !== 'object') throw new Error(`${component} is not an object in the contract`);
      this.definitions[key] = this.object(described.properties, this.membersOf(type), type);
    }
    return { $ref: `#/definitions/${key}` };
  }

  private object(declared: ReadonlyMap<string, S>, members: Map<string, ts.TypeNode>, where: string): Json {
    const properties: Json = {};
    for (const [name, node] of [...members].sort(([a], [b]) => a.localeCompare(b))) {
      const property = declared.get(name);
      if (property === undefined) {
        if (this.knownDifferences[`${where}.${name}`] === undefined) this.problems.push(`${where}.${name} is not in the contract`);
        else this.differencesSeen.add(`${where}.${name}`);
        continue;
      }
      properties[name] = this.walk(property, node, `${where}.${name}`);
    }
    return { type: 'object', properties };
  }

  private walk(schema: S, node: ts.TypeNode, where: string): Json {
    const described = this.adapter.describe(schema);
    const bare = withoutNull(node);
    if (bare !== node && !described.nullable) this.problems.push(`${where}: the types admit null, the contract does not`);
    const result = this.shape(schema, described, bare, where);
    if (!described.nullable) return result;
    return typeof result.type === 'string' ? { ...result, type: [result.type, 'null'] } : { anyOf: [result, { type: 'null' }] };
  }

  private shape(schema: S, described: Described<S>, node: ts.TypeNode, where: string): Json {
    if (described.kind === 'object') {
      if (ts.isTypeReferenceNode(node)) {
        const name = node.typeName.getText();
        if (this.types.interfaces.has(name) && described.component !== null) return this.named(described.component, schema, name);
        const alias = this.types.aliases.get(name);
        if (alias !== undefined) return this.shape(schema, described, alias, where);
      }
      if (ts.isTypeLiteralNode(node)) return this.object(described.properties, literalMembers(node.members), where);
      this.problems.push(`${where}: the contract has an object (${described.component ?? 'inline'}), the types ${node.getText()}`);
      return { type: 'object' };
    }
    if (ts.isTypeReferenceNode(node)) {
      const alias = this.types.aliases.get(node.typeName.getText());
      if (alias !== undefined) return this.shape(schema, described, alias, where);
    }
    if (described.kind === 'array') {
      if (!ts.isArrayTypeNode(node)) {
        this.problems.push(`${where}: the contract has an array, the types ${node.getText()}`);
        return { type: 'array' };
      }
      return { type: 'array', items: this.walk(described.items, node.elementType, `${where}[]`) };
    }
    const expected = described.type === 'integer' || described.type === 'number' ? 'number' : described.type;
    if (expected !== jsonTypeOf(node)) this.problems.push(`${where}: the contract has ${String(described.type)}, the types ${node.getText()}`);
    return described.type === null ? {} : { type: described.type };
  }

  /** The schemas file's text; throws listing every difference between the types and the contract. */
  render(platform: string, comment: string, top: Json): string {
    for (const known of Object.keys(this.knownDifferences)) {
      if (!this.differencesSeen.has(known)) this.problems.push(`${known} is a known difference but no longer differs: remove it`);
    }
    if (this.problems.length > 0) throw new Error(`the types do not fit ${platform}'s contract:\n${this.problems.join('\n')}`);
    const sorted = Object.fromEntries(Object.entries(this.definitions).sort(([a], [b]) => a.localeCompare(b)));
    return `${JSON.stringify({ $comment: comment, ...top, definitions: sorted }, null, 2)}\n`;
  }
}

/** A point in one of a platform's OpenAPI documents (Xero publishes two: accounting and identity). */
export interface OpenApiPoint<D extends string> {
  document: D;
  schema: Json;
}

/**
 * OpenAPI 3.0 as the cutter sees it, for any platform that publishes OpenAPI: `$ref`s to object components are named
 * objects, `nullable` is a flag; each `$ref` resolves inside its own document.
 */
export class OpenApiAdapter<D extends string> implements ContractAdapter<OpenApiPoint<D>> {
  private readonly documents: Readonly<Record<D, Json>>;

  constructor(documents: Readonly<Record<D, Json>>) {
    this.documents = documents;
  }

  component(document: D, name: string): OpenApiPoint<D> {
    const components = this.documents[document].components;
    const schemas = isObject(components) ? components.schemas : undefined;
    const schema = isObject(schemas) ? schemas[name] : undefined;
    if (!isObject(schema)) throw new Error(`the ${document} contract has no component ${name}`);
    return { document, schema };
  }

  describe({ document, schema }: OpenApiPoint<D>): Described<OpenApiPoint<D>> {
    const nullable = schema.nullable === true;
    if (typeof schema.$ref === 'string') {
      const component = schema.$ref.replace('#/components/schemas/', '');
      const target = this.component(document, component);
      if (target.schema.type === 'object' || isObject(target.schema.properties)) return { ...this.objectOf(target, component), nullable };
      const described = this.describe(target);
      return described.kind === 'scalar' && described.values !== undefined ? { ...described, component, nullable } : { ...described, nullable };
    }
    if (schema.type === 'array') return { kind: 'array', items: { document, schema: isObject(schema.items) ? schema.items : {} }, nullable };
    if (schema.type === 'object' || isObject(schema.properties)) return { ...this.objectOf({ document, schema }, null), nullable };
    const type = typeof schema.type === 'string' ? schema.type : null;
    const values = Array.isArray(schema.enum) ? schema.enum.filter((value): value is string => typeof value === 'string') : [];
    return values.length > 0 ? { kind: 'scalar', type, values, nullable } : { kind: 'scalar', type, nullable };
  }

  private objectOf({ document, schema }: OpenApiPoint<D>, component: string | null): Described<OpenApiPoint<D>> {
    const declared = isObject(schema.properties) ? schema.properties : {};
    const properties = new Map<string, OpenApiPoint<D>>();
    for (const [name, property] of Object.entries(declared)) if (isObject(property)) properties.set(name, { document, schema: property });
    return { kind: 'object', component, properties, nullable: false };
  }
}
