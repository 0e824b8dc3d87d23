/**
 * Writes src/platforms/stripe/contract-schemas.json: JSON Schemas of the Stripe objects the connector maps, cut from
 * Stripe's published OpenAPI description (test/contracts/published.ts) along the connector's table of what it reads
 * (READS in src/platforms/stripe/contract.ts, whose types are the SDK's cut along the same table).
 * Run: node scripts/gen-stripe-contract.ts (src/platforms/stripe/contract.test.ts fails when the file is stale).
 *
 * Kept: JSON types, nesting, `nullable`, and `required` for the fields the table requires (the rest are optional, read
 * leniently). Dropped: enums (Stripe adds statuses and types without a new version), formats, lengths, descriptions.
 * An expandable field (an id or the object) keeps both branches, each object cut to the table's fields it has. A field
 * of the table the contract lacks, or an object where the table reads a scalar, stops the script.
 */
import { writeFileSync } from 'node:fs';
import { READS, type Reads } from '../src/platforms/stripe/contract.ts';
import { readPublishedJson, STRIPE_OPENAPI } from '../test/contracts/published.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export const TARGET = new URL('../src/platforms/stripe/contract-schemas.json', import.meta.url);

class Cutter {
  readonly definitions: Json = {};
  private readonly components: Json;

  constructor(components: Json) {
    this.components = components;
  }

  component(name: string): Json {
    const schema = this.components[name];
    if (!isObject(schema)) throw new Error(`Stripe's contract has no component ${name}`);
    return schema;
  }

  /** `schema` cut to `reads` (a scalar when `true`), at `where` for messages. */
  cut(schema: Json, reads: true | Reads, where: string): Json {
    const nullable = schema.nullable === true;
    const cut = this.shape(schema, reads, where);
    if (!nullable) return cut;
    return typeof cut.type === 'string' ? { ...cut, type: [cut.type, 'null'] } : { anyOf: [cut, { type: 'null' }] };
  }

  private shape(schema: Json, reads: true | Reads, where: string): Json {
    if (typeof schema.$ref === 'string') return this.shape(this.component(schema.$ref.replace('#/components/schemas/', '')), reads, where);
    const branches = Array.isArray(schema.anyOf) ? schema.anyOf.filter(isObject) : null;
    if (branches !== null) {
      if (branches.length === 1 && branches[0] !== undefined) return this.shape(branches[0], reads, where);
      return { anyOf: branches.map((branch) => this.shape(branch, reads === true ? true : reads, where)) };
    }
    if (reads === true) {
      if (schema.type === 'object' || schema.type === 'array' || typeof schema.type !== 'string')
        throw new Error(`${where}: the table reads a scalar, the contract has ${JSON.stringify(schema.type ?? 'no type')}`);
      return { type: schema.type };
    }
    if (schema.type === 'string') return { type: 'string' };
    // A list's items, cut to the table's fields.
    if (schema.type === 'array' && isObject(schema.items)) return { type: 'array', items: this.cut(schema.items, reads, `${where}[]`) };
    if (!isObject(schema.properties)) throw new Error(`${where}: the table reads fields, the contract has no object`);
    return this.object(schema.properties, reads, where);
  }

  /** The table's fields this object has; one it lacks is an error unless the object is a branch of a union. */
  private object(properties: Json, reads: Reads, where: string): Json {
    const cut: Json = {};
    const required: string[] = [];
    for (const [key, inner] of Object.entries(reads)) {
      const name = key.replace(/\?$/, '');
      const property = properties[name];
      if (!isObject(property)) continue;
      cut[name] = this.cut(property, inner, `${where}.${name}`);
      if (!key.endsWith('?')) required.push(name);
    }
    if (Object.keys(cut).length === 0) throw new Error(`${where}: the contract has none of ${Object.keys(reads).join(', ')}`);
    return { type: 'object', properties: cut, ...(required.length === 0 ? {} : { required }) };
  }

  /** Each field of the table the top-level component lacks. */
  missing(component: string, reads: Reads): string[] {
    const properties = this.component(component).properties;
    return Object.keys(reads)
      .map((key) => key.replace(/\?$/, ''))
      .filter((name) => !isObject(properties) || !isObject(properties[name]))
      .map((name) => `${component}.${name}`);
  }
}

/** The file's text. */
export async function generate(): Promise<string> {
  const spec = await readPublishedJson(STRIPE_OPENAPI);
  const components = isObject(spec) && isObject(spec.components) && isObject(spec.components.schemas) ? spec.components.schemas : null;
  if (components === null) throw new Error("Stripe's OpenAPI description has no components");
  const cutter = new Cutter(components);
  const definitions: Json = {};
  const entries: Json = {};
  const missing: string[] = [];
  for (const [name, reads] of Object.entries(READS)) {
    missing.push(...cutter.missing(name, reads));
    definitions[name] = cutter.cut(cutter.component(name), reads, name);
    entries[name] = { $ref: `#/definitions/${name}` };
  }
  if (missing.length > 0) throw new Error(`the table reads fields Stripe's contract lacks: ${missing.join(', ')}`);
  // The reader stores a payout with its account's id and the balance transactions it paid out (read.ts).
  const payout = definitions.payout;
  if (isObject(payout) && isObject(payout.properties)) {
    payout.properties.account = { type: 'string' };
    payout.properties.balance_transactions = { type: 'array', items: { $ref: '#/definitions/balance_transaction' } };
  }
  const comment = `Generated by \`node scripts/gen-stripe-contract.ts\` from Stripe's OpenAPI (${STRIPE_OPENAPI.pkg} ${STRIPE_OPENAPI.version}) and READS in src/platforms/stripe/contract.ts; do not edit by hand.`;
  return `${JSON.stringify({ $comment: comment, entries, definitions }, null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  writeFileSync(TARGET, await generate());
  console.log(`wrote ${TARGET.pathname}`);
}
