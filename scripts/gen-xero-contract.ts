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
import { type ContractAdapter, ContractCutter, type Described, isObject, type Json } from './contract-cut.ts';

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
  const document: unknown = JSON.parse(readFileSync(new URL(`test/contracts/xero/${file}`, ROOT), 'utf8'));
  if (!isObject(document)) throw new Error(`test/contracts/xero/${file} is not a JSON object`);
  return document;
}

type Document = 'accounting' | 'identity';
/** A point in one of Xero's two OpenAPI documents. */
interface Point {
  document: Document;
  schema: Json;
}

/** OpenAPI 3.0 as the cutter sees it: `$ref`s to object components are named objects, `nullable` is a flag. */
class OpenApiAdapter implements ContractAdapter<Point> {
  private readonly documents = { accounting: load('xero_accounting.json'), identity: load('xero-identity.json') };

  component(document: Document, name: string): Point {
    const components = this.documents[document].components;
    const schemas = isObject(components) ? components.schemas : undefined;
    const schema = isObject(schemas) ? schemas[name] : undefined;
    if (!isObject(schema)) throw new Error(`the ${document} contract has no component ${name}`);
    return { document, schema };
  }

  describe({ document, schema }: Point): Described<Point> {
    const nullable = schema.nullable === true;
    if (typeof schema.$ref === 'string') {
      const component = schema.$ref.replace('#/components/schemas/', '');
      const target = this.component(document, component);
      if (target.schema.type === 'object' || isObject(target.schema.properties)) return { ...this.objectOf(target, component), nullable };
      return { ...this.describe(target), nullable };
    }
    if (schema.type === 'array') return { kind: 'array', items: { document, schema: isObject(schema.items) ? schema.items : {} }, nullable };
    if (schema.type === 'object' || isObject(schema.properties)) return { ...this.objectOf({ document, schema }, null), nullable };
    return { kind: 'scalar', type: typeof schema.type === 'string' ? schema.type : null, nullable };
  }

  private objectOf({ document, schema }: Point, component: string | null): Described<Point> {
    const declared = isObject(schema.properties) ? schema.properties : {};
    const properties = new Map<string, Point>();
    for (const [name, property] of Object.entries(declared)) if (isObject(property)) properties.set(name, { document, schema: property });
    return { kind: 'object', component, properties, nullable: false };
  }
}

/** The file's text; throws listing every difference between types.ts and the contract. */
export function generate(): string {
  const adapter = new OpenApiAdapter();
  const cutter = new ContractCutter(adapter, new URL('src/platforms/xero/types.ts', ROOT), KNOWN_DIFFERENCES);
  const lists: Json = {};
  for (const [key, node] of cutter.membersOf('XeroLists')) {
    const list = LISTS[key];
    if (list === undefined) throw new Error(`XeroLists.${key}: add its contract component to LISTS in scripts/gen-xero-contract.ts`);
    lists[key] = cutter.named(list.component, adapter.component(list.document, list.component), node.getText());
  }
  const connections = cutter.named(CONNECTIONS.component, adapter.component(CONNECTIONS.document, CONNECTIONS.component), CONNECTIONS.type);
  return cutter.render(
    'Xero',
    'Generated by `node scripts/gen-xero-contract.ts` from test/contracts/xero and src/platforms/xero/types.ts; do not edit by hand.',
    { lists, connections },
  );
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  writeFileSync(TARGET, generate());
  console.log(`wrote ${TARGET.pathname}`);
}
