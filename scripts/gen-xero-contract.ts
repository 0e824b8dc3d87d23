/**
 * Writes src/platforms/xero/contract-schemas.json: JSON Schemas of the Xero answers the connector reads, cut from
 * Xero's published OpenAPI (test/contracts/xero) along the connector's own types (src/platforms/xero/types.ts).
 * Run: node scripts/gen-xero-contract.ts (src/platforms/xero/contract.test.ts fails when the file is stale).
 *
 * Walking the contract and types.ts together does two jobs at once:
 * - the schemas hold only the fields the connector reads, so Xero adding or changing a field we ignore never fails a
 *   sync (a schema of the whole contract would have, e.g., on any of Invoice's 40 properties);
 * - types.ts is checked against the contract: a field it declares that the contract lacks, or declares with another
 *   JSON type, stops the script, unless KNOWN_DIFFERENCES lists it with its reason.
 * What is dropped, and why: `enum` (Xero adds values, a tax type or status, without a new contract version; the
 * mappers already turn unknown values into `unknown`), `format` (Xero's dates are its own `/Date(…)/` text),
 * `required` (written for requests: answers leave out what is empty, which is why every field in types.ts is
 * optional), lengths and descriptions. Kept: JSON types, nesting and `nullable`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const ROOT = new URL('../', import.meta.url);
export const TARGET = new URL('src/platforms/xero/contract-schemas.json', ROOT);

/** types.ts fields the contract (2.9.4) does not have, each with its reason; anything else missing stops the script. */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'XeroLineItem.AccountID': 'newer Xero versions send it; the connector fills it in from the chart of accounts',
  'XeroReportRow.Rows': 'one type for a section (ReportRows, which has Rows) and its rows (ReportRow, which has none)',
};

/** Each answer list: the key the connector reads, and the contract document and component of its records. */
const LISTS: Record<string, { document: 'accounting' | 'identity'; component: string }> = {
  Accounts: { document: 'accounting', component: 'Account' },
  Attachments: { document: 'accounting', component: 'Attachment' },
  BankTransfers: { document: 'accounting', component: 'BankTransfer' },
  Contacts: { document: 'accounting', component: 'Contact' },
  CreditNotes: { document: 'accounting', component: 'CreditNote' },
  Currencies: { document: 'accounting', component: 'Currency' },
  Employees: { document: 'accounting', component: 'Employee' },
  Invoices: { document: 'accounting', component: 'Invoice' },
  ManualJournals: { document: 'accounting', component: 'ManualJournal' },
  Organisations: { document: 'accounting', component: 'Organisation' },
  Payments: { document: 'accounting', component: 'Payment' },
  Reports: { document: 'accounting', component: 'ReportWithRow' },
  TaxRates: { document: 'accounting', component: 'TaxRate' },
  TrackingCategories: { document: 'accounting', component: 'TrackingCategory' },
};
/** GET /connections answers a bare array of these (identity contract). */
const CONNECTIONS = { document: 'identity' as const, component: 'Connection', type: 'XeroConnection' };

function load(file: string): Json {
  return JSON.parse(readFileSync(new URL(`test/contracts/xero/${file}`, ROOT), 'utf8')) as Json;
}

interface TypeInfo {
  members: Map<string, ts.TypeNode>;
}

function readTypes(): { interfaces: Map<string, TypeInfo>; aliases: Map<string, ts.TypeNode> } {
  const path = new URL('src/platforms/xero/types.ts', ROOT);
  const source = ts.createSourceFile('types.ts', readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const declared = new Map<string, ts.InterfaceDeclaration>();
  const aliases = new Map<string, ts.TypeNode>();
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement)) declared.set(statement.name.text, statement);
    if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement.type);
  }
  const interfaces = new Map<string, TypeInfo>();
  const membersOf = (name: string): Map<string, ts.TypeNode> => {
    const node = declared.get(name);
    if (node === undefined) throw new Error(`types.ts has no interface ${name}`);
    const members = new Map<string, ts.TypeNode>();
    for (const clause of node.heritageClauses ?? []) {
      for (const parent of clause.types) for (const [k, v] of membersOf(parent.expression.getText())) members.set(k, v);
    }
    for (const member of node.members) {
      if (ts.isPropertySignature(member) && member.type !== undefined) members.set(member.name.getText(), member.type);
    }
    return members;
  };
  for (const name of declared.keys()) interfaces.set(name, { members: membersOf(name) });
  return { interfaces, aliases };
}

class Generator {
  readonly definitions: Record<string, Json> = {};
  readonly problems: string[] = [];
  readonly differencesSeen = new Set<string>();
  private readonly documents = { accounting: load('xero_accounting.json'), identity: load('xero-identity.json') };
  private readonly types = readTypes();

  component(document: 'accounting' | 'identity', name: string): Json {
    const components = this.documents[document].components;
    const schemas = isObject(components) ? components.schemas : undefined;
    const schema = isObject(schemas) ? schemas[name] : undefined;
    if (!isObject(schema)) throw new Error(`the ${document} contract has no component ${name}`);
    return schema;
  }

  /** A definition named after the contract component and the connector's type (one component, several views). */
  named(document: 'accounting' | 'identity', component: string, type: string): Json {
    const key = `${component}.${type}`;
    if (this.definitions[key] === undefined) {
      this.definitions[key] = {}; // taken before walking: recursive types refer to themselves
      const info = this.types.interfaces.get(type);
      if (info === undefined) throw new Error(`types.ts has no interface ${type}`);
      this.definitions[key] = this.object(document, this.component(document, component), info.members, type);
    }
    return { $ref: `#/definitions/${key}` };
  }

  private object(document: 'accounting' | 'identity', schema: Json, members: Map<string, ts.TypeNode>, where: string): Json {
    const properties: Json = {};
    const declared = isObject(schema.properties) ? schema.properties : {};
    for (const [name, node] of [...members].sort(([a], [b]) => a.localeCompare(b))) {
      const property = declared[name];
      if (!isObject(property)) {
        if (KNOWN_DIFFERENCES[`${where}.${name}`] === undefined) this.problems.push(`${where}.${name} is not in the contract`);
        else this.differencesSeen.add(`${where}.${name}`);
        continue;
      }
      properties[name] = this.walk(document, property, node, `${where}.${name}`);
    }
    return { type: 'object', properties };
  }

  private walk(document: 'accounting' | 'identity', schema: Json, node: ts.TypeNode, where: string): Json {
    const nullable = schema.nullable === true;
    const result = this.shape(document, schema, node, where);
    if (!nullable) return result;
    return typeof result.type === 'string' ? { ...result, type: [result.type, 'null'] } : { anyOf: [result, { type: 'null' }] };
  }

  private shape(document: 'accounting' | 'identity', schema: Json, node: ts.TypeNode, where: string): Json {
    if (typeof schema.$ref === 'string') {
      const component = schema.$ref.replace('#/components/schemas/', '');
      const target = this.component(document, component);
      if (target.type === 'object' || isObject(target.properties)) {
        if (ts.isTypeReferenceNode(node) && this.types.interfaces.has(node.typeName.getText()))
          return this.named(document, component, node.typeName.getText());
        if (ts.isTypeLiteralNode(node)) return this.literal(document, target, node, where);
        this.problems.push(`${where}: the contract has an object (${component}), types.ts ${node.getText()}`);
        return {};
      }
      return this.shape(document, target, node, where);
    }
    if (ts.isTypeReferenceNode(node)) {
      const alias = this.types.aliases.get(node.typeName.getText());
      if (alias !== undefined) return this.shape(document, schema, alias, where);
    }
    const type = schema.type;
    if (type === 'array') {
      const items = isObject(schema.items) ? schema.items : {};
      if (!ts.isArrayTypeNode(node)) {
        this.problems.push(`${where}: the contract has an array, types.ts ${node.getText()}`);
        return { type: 'array' };
      }
      return { type: 'array', items: this.walk(document, items, node.elementType, `${where}[]`) };
    }
    if (type === 'object' || isObject(schema.properties)) {
      if (ts.isTypeLiteralNode(node)) return this.literal(document, schema, node, where);
      this.problems.push(`${where}: the contract has an inline object, types.ts ${node.getText()}`);
      return { type: 'object' };
    }
    const expected = type === 'integer' || type === 'number' ? 'number' : type;
    if (expected !== jsonTypeOf(node)) this.problems.push(`${where}: the contract has ${String(type)}, types.ts ${node.getText()}`);
    return typeof type === 'string' ? { type } : {};
  }

  private literal(document: 'accounting' | 'identity', schema: Json, node: ts.TypeLiteralNode, where: string): Json {
    const members = new Map<string, ts.TypeNode>();
    for (const member of node.members)
      if (ts.isPropertySignature(member) && member.type !== undefined) members.set(member.name.getText(), member.type);
    return this.object(document, schema, members, where);
  }
}

/** The JSON type a types.ts field's TypeScript type stands for. */
function jsonTypeOf(node: ts.TypeNode): string {
  if (node.kind === ts.SyntaxKind.StringKeyword) return 'string';
  if (node.kind === ts.SyntaxKind.NumberKeyword) return 'number';
  if (node.kind === ts.SyntaxKind.BooleanKeyword) return 'boolean';
  if (ts.isUnionTypeNode(node) && node.types.every((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal))) return 'string';
  return node.getText();
}

/** The file's text; throws listing every difference between types.ts and the contract. */
export function generate(): string {
  const generator = new Generator();
  const listTypes = readTypes().interfaces.get('XeroLists');
  if (listTypes === undefined) throw new Error('types.ts has no XeroLists');
  const lists: Json = {};
  for (const [key, node] of listTypes.members) {
    const list = LISTS[key];
    if (list === undefined) throw new Error(`XeroLists.${key}: add its contract component to LISTS in scripts/gen-xero-contract.ts`);
    lists[key] = generator.named(list.document, list.component, node.getText());
  }
  const connections = generator.named(CONNECTIONS.document, CONNECTIONS.component, CONNECTIONS.type);
  for (const known of Object.keys(KNOWN_DIFFERENCES)) {
    if (!generator.differencesSeen.has(known)) generator.problems.push(`${known} is in KNOWN_DIFFERENCES but no longer differs: remove it`);
  }
  if (generator.problems.length > 0) throw new Error(`types.ts does not fit Xero's contract:\n${generator.problems.join('\n')}`);
  const sorted = Object.fromEntries(Object.entries(generator.definitions).sort(([a], [b]) => a.localeCompare(b)));
  return `${JSON.stringify(
    {
      $comment: 'Generated by `node scripts/gen-xero-contract.ts` from test/contracts/xero and src/platforms/xero/types.ts; do not edit by hand.',
      lists,
      connections,
      definitions: sorted,
    },
    null,
    2,
  )}\n`;
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  writeFileSync(TARGET, generate());
  console.log(`wrote ${TARGET.pathname}`);
}
