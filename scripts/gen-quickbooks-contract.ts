/**
 * Writes src/platforms/quickbooks/generated/native.ts and contract-schemas.json: the TypeScript types of the QuickBooks
 * Online records the connector reads, and JSON Schemas of its answers, both from Intuit's published XML Schema of the
 * v3 API (test/contracts/quickbooks) along the connector's selection (src/platforms/quickbooks/selection.ts: each
 * type's schema type and the fields it reads), on the emitter and cutter every platform shares (./contract-types.ts,
 * ./contract-cut.ts). The types carry the schema's enumerations as string unions; the schemas drop them.
 * Run: node scripts/gen-quickbooks-contract.ts (src/platforms/quickbooks/contract.test.ts fails when either is stale).
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
import { ENTITIES, SELECTION } from '../src/platforms/quickbooks/selection.ts';
import { type ContractAdapter, ContractCutter, type Described, isObject, type Json } from './contract-cut.ts';
import { TypeEmitter, type TypeSelection } from './contract-types.ts';

const ROOT = new URL('../', import.meta.url);
export const TARGETS = {
  schemas: new URL('src/platforms/quickbooks/contract-schemas.json', ROOT),
  types: new URL('src/platforms/quickbooks/generated/native.ts', ROOT),
};
const FILES = ['IntuitBaseTypes.xsd', 'IntuitNamesTypes.xsd', 'Finance.xsd', 'SalesTax.xsd', 'Report.xsd', 'IntuitRestServiceDef.xsd'];

/** Selected fields the schema does not have, each with its reason; anything else missing stops the script. */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'QboTrackingCategory.SubDepartment': 'one type reads Class and Department: only a Department has SubDepartment',
  'QboTrackingCategory.SubClass': 'one type reads Class and Department: only a Class has SubClass',
  'QboCompanyInfo.HomeCurrency': "not QBO's: the connector copies Preferences' home currency in (company.ts)",
  'QboTransfer.TotalAmt': 'inherited from QboTransaction; a Transfer has Amount instead, so QBO never sends it',
};

/** Differences of the selected types that are not answers' types (the cutter walks the entities that extend them). */
const TYPE_DIFFERENCES: Record<string, string> = {
  'QboTransaction.TotalAmt': "every transaction's own type has it but Transfer's (see QboTransfer.TotalAmt)",
};

const SOURCES = 'from test/contracts/quickbooks and src/platforms/quickbooks/selection.ts; do not edit by hand.';

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
    if (complex === undefined) {
      const values = this.enumeration(type);
      if (values.length === 0) return { kind: 'scalar', type: this.scalar(type), nullable: false };
      return { kind: 'scalar', type: this.scalar(type), values, component: type, nullable: false };
    }
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

/** The entities interface: the record type under each entity key of QBO's answers. */
function entitiesInterface(): string {
  const members = Object.entries(ENTITIES).map(([key, type]) => `  ${key}: ${type};\n`);
  const doc = '/** Each entity the connector reads, under the key QBO answers it with (QueryResponse, CDC, a read by id). */';
  return `${doc}\nexport interface QboEntities {\n${members.join('')}}`;
}

/** Both files' text; throws listing every difference between the selection and the contract. */
export function generate(): { types: string; schemas: string } {
  const adapter = new XsdAdapter();
  const schemaOf = (selection: TypeSelection) => ({ type: selection.component, repeated: false });
  const selections: Record<string, TypeSelection> = SELECTION;
  const differences = { ...KNOWN_DIFFERENCES, ...TYPE_DIFFERENCES };
  const types = new TypeEmitter(adapter, selections, schemaOf, differences).render(
    `Generated by \`node scripts/gen-quickbooks-contract.ts\` ${SOURCES}`,
    entitiesInterface(),
  );
  const cutter = new ContractCutter(adapter, { name: TARGETS.types.pathname, text: types }, KNOWN_DIFFERENCES);
  const entities: Json = {};
  for (const [key, type] of Object.entries(ENTITIES)) {
    if (!adapter.hasType(key)) throw new Error(`ENTITIES.${key} (src/platforms/quickbooks/selection.ts) is not a type of the schema`);
    entities[key] = cutter.named(key, { type: key, repeated: false }, type);
  }
  const schemas = cutter.render('QuickBooks Online', `Generated by \`node scripts/gen-quickbooks-contract.ts\` ${SOURCES}`, { entities });
  return { types, schemas };
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const { types, schemas } = generate();
  writeFileSync(TARGETS.types, types);
  writeFileSync(TARGETS.schemas, schemas);
  console.log(`wrote ${TARGETS.types.pathname} and ${TARGETS.schemas.pathname}`);
}
