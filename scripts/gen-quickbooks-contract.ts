/**
 * Writes src/platforms/quickbooks/contract-schemas.json: JSON Schemas of the QuickBooks Online answers the connector
 * reads, cut from Intuit's published XML Schema of the v3 API (test/contracts/quickbooks) along the connector's own
 * types (src/platforms/quickbooks/native.ts), on the cutter every platform shares (scripts/contract-cut.ts).
 * Run: node scripts/gen-quickbooks-contract.ts (src/platforms/quickbooks/contract.test.ts fails when the file is stale).
 *
 * The JSON API is the same model as the schema serialised as JSON, which fixes how XML Schema reads as JSON:
 * - a complex type is an object whose properties are its elements (those of its base types, sequences, choices and
 *   groups included) and its attributes (`domain`, `sparse`, `status`; a reference's `name` and `type`);
 * - simple content (ReferenceType: an id with attributes) is the property `value`;
 * - an element that may occur more than once is an array;
 * - xs:decimal, xs:int and the other numeric types are JSON numbers, xs:boolean a boolean, everything else (dates,
 *   times, ids, enumerations) a string.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseXml } from '../src/platforms/xml.ts';
import { type ContractAdapter, ContractCutter, type Described, isObject, type Json } from './contract-cut.ts';

const ROOT = new URL('../', import.meta.url);
export const TARGET = new URL('src/platforms/quickbooks/contract-schemas.json', ROOT);
const FILES = ['IntuitBaseTypes.xsd', 'IntuitNamesTypes.xsd', 'Finance.xsd', 'SalesTax.xsd', 'Report.xsd', 'IntuitRestServiceDef.xsd'];

/** native.ts fields the schema does not have, each with its reason; anything else missing stops the script. */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'QboTrackingCategory.SubDepartment': 'one type reads Class and Department: only a Department has SubDepartment',
  'QboTrackingCategory.SubClass': 'one type reads Class and Department: only a Class has SubClass',
  'QboCompanyInfo.HomeCurrency': "not QBO's: the connector copies Preferences' home currency in (company.ts)",
  'QboTransfer.TotalAmt': 'inherited from QboTransaction; a Transfer has Amount instead, so QBO never sends it',
};

/** Each entity the connector queries (QueryResponse and CDC answer it under this key), and its schema type. */
const ENTITIES: Record<string, string> = {
  Account: 'Account',
  Attachable: 'Attachable',
  Bill: 'Bill',
  BillPayment: 'BillPayment',
  Class: 'Class',
  CompanyCurrency: 'CompanyCurrency',
  CompanyInfo: 'CompanyInfo',
  CreditMemo: 'CreditMemo',
  Customer: 'Customer',
  Department: 'Department',
  Deposit: 'Deposit',
  Employee: 'Employee',
  ExchangeRate: 'ExchangeRate',
  Invoice: 'Invoice',
  Item: 'Item',
  JournalEntry: 'JournalEntry',
  Payment: 'Payment',
  Preferences: 'Preferences',
  SalesReceipt: 'SalesReceipt',
  TaxAgency: 'TaxAgency',
  TaxRate: 'TaxRate',
  Term: 'Term',
  Transfer: 'Transfer',
  Vendor: 'Vendor',
  VendorCredit: 'VendorCredit',
};

const NUMERIC = new Set(['decimal', 'int', 'integer', 'long', 'short', 'double', 'float', 'positiveInteger', 'nonNegativeInteger']);

/** Always a list: the parser gives one child as itself and several as an array. */
function all(value: unknown): Json[] {
  if (Array.isArray(value)) return value.filter(isObject);
  return isObject(value) ? [value] : [];
}

const text = (node: Json, attribute: string): string | undefined => {
  const value = node[`@_${attribute}`];
  return typeof value === 'string' ? value : undefined;
};

/** A point in the schema: a named type, or an element that may repeat. */
type Point = { type: string; repeated: boolean };

export class XsdAdapter implements ContractAdapter<Point> {
  private readonly complex = new Map<string, Json>();
  private readonly simple = new Map<string, Json>();
  private readonly groups = new Map<string, Json>();

  constructor() {
    for (const file of FILES) {
      const document = parseXml(readFileSync(new URL(`test/contracts/quickbooks/${file}`, ROOT), 'utf8'));
      const schema = isObject(document) ? document['xs:schema'] : undefined;
      if (!isObject(schema)) throw new Error(`${file} has no xs:schema`);
      for (const [list, into] of [
        ['xs:complexType', this.complex],
        ['xs:simpleType', this.simple],
        ['xs:group', this.groups],
      ] as const) {
        for (const node of all(schema[list])) {
          const name = text(node, 'name');
          if (name !== undefined) into.set(name, node);
        }
      }
    }
  }

  hasType(name: string): boolean {
    return this.complex.has(name);
  }

  describe({ type, repeated }: Point): Described<Point> {
    if (repeated) return { kind: 'array', items: { type, repeated: false }, nullable: false };
    const complex = this.complex.get(type);
    if (complex === undefined) return { kind: 'scalar', type: this.scalar(type), nullable: false };
    return { kind: 'object', component: type, properties: this.properties(complex), nullable: false };
  }

  /** The values a named simple type enumerates; none: any value of its base. */
  enumeration(type: string): string[] {
    const restriction = all(this.simple.get(type)?.['xs:restriction'])[0];
    return all(restriction?.['xs:enumeration']).flatMap((value) => text(value, 'value') ?? []);
  }

  /** The JSON type of a built-in or named simple type. */
  private scalar(type: string): string {
    if (type.startsWith('xs:')) {
      const builtin = type.slice(3);
      if (builtin === 'boolean') return 'boolean';
      return NUMERIC.has(builtin) ? 'number' : 'string';
    }
    const simple = this.simple.get(type);
    if (simple === undefined) throw new Error(`the schema has no type ${type}`);
    const restriction = all(simple['xs:restriction'])[0];
    const base = restriction === undefined ? undefined : text(restriction, 'base');
    return base === undefined ? 'string' : this.scalar(base);
  }

  private properties(complex: Json): Map<string, Point> {
    const properties = new Map<string, Point>();
    const content = all(complex['xs:complexContent'])[0] ?? all(complex['xs:simpleContent'])[0];
    const extension = content === undefined ? undefined : (all(content['xs:extension'])[0] ?? all(content['xs:restriction'])[0]);
    const base = extension === undefined ? undefined : text(extension, 'base');
    if (base !== undefined) {
      const parent = this.complex.get(base);
      if (parent !== undefined) for (const [name, point] of this.properties(parent)) properties.set(name, point);
      else properties.set('value', { type: base, repeated: false }); // simple content
    }
    this.particles(extension ?? complex, properties);
    return properties;
  }

  /** Elements of sequences, choices and groups, and attributes, into `properties`. */
  private particles(node: Json, properties: Map<string, Point>): void {
    for (const element of all(node['xs:element'])) {
      const name = text(element, 'name') ?? text(element, 'ref');
      const type = text(element, 'type') ?? text(element, 'ref');
      if (name === undefined || type === undefined) continue;
      const max = text(element, 'maxOccurs');
      properties.set(name, { type, repeated: max !== undefined && max !== '1' && max !== '0' });
    }
    for (const attribute of all(node['xs:attribute'])) {
      const name = text(attribute, 'name');
      const type = text(attribute, 'type');
      if (name !== undefined && type !== undefined) properties.set(name, { type, repeated: false });
    }
    for (const nested of [...all(node['xs:sequence']), ...all(node['xs:choice'])]) this.particles(nested, properties);
    for (const reference of all(node['xs:group'])) {
      const group = this.groups.get(text(reference, 'ref') ?? '');
      if (group !== undefined) this.particles(group, properties);
    }
  }
}

/** The file's text; throws listing every difference between native.ts and the contract. */
export function generate(): string {
  const adapter = new XsdAdapter();
  const cutter = new ContractCutter(adapter, new URL('src/platforms/quickbooks/native.ts', ROOT), KNOWN_DIFFERENCES);
  const entities: Json = {};
  for (const [key, node] of cutter.membersOf('QboEntities')) {
    const type = ENTITIES[key];
    if (type === undefined || !adapter.hasType(type))
      throw new Error(`QboEntities.${key}: add its schema type to ENTITIES in scripts/gen-quickbooks-contract.ts`);
    entities[key] = cutter.named(type, { type, repeated: false }, node.getText());
  }
  return cutter.render(
    'QuickBooks Online',
    'Generated by `node scripts/gen-quickbooks-contract.ts` from test/contracts/quickbooks and src/platforms/quickbooks/native.ts; do not edit by hand.',
    { entities },
  );
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  writeFileSync(TARGET, generate());
  console.log(`wrote ${TARGET.pathname}`);
}
