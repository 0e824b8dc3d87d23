import { describe, expect, it } from 'vitest';
import { ContractCutter, OpenApiAdapter } from '../../scripts/contract-cut.ts';
import { parseFields, TypeEmitter, type TypeSelection } from '../../scripts/contract-types.ts';

const adapter = new OpenApiAdapter({
  shop: {
    components: {
      schemas: {
        Order: {
          type: 'object',
          properties: {
            Id: { type: 'string' },
            Kind: { $ref: '#/components/schemas/Kind' },
            State: { type: 'string', enum: ['OPEN', 'PAID'] },
            Note: { type: 'string', nullable: true },
            Count: { type: 'integer' },
            Lines: { type: 'array', items: { $ref: '#/components/schemas/Line' } },
            Buyer: { $ref: '#/components/schemas/Person' },
            Seller: { $ref: '#/components/schemas/Person' },
            Link: { type: 'object', properties: { Url: { type: 'string' }, Rel: { type: 'string' } } },
          },
        },
        Kind: { type: 'string', enum: ['SALE', 'RETURN'] },
        Line: { type: 'object', properties: { Amount: { type: 'number' }, Taxed: { type: 'boolean' } } },
        Person: { type: 'object', properties: { Name: { type: 'string' }, Email: { type: 'string' } } },
      },
    },
  },
});

function emitter(selections: Record<string, TypeSelection>, knownDifferences: Record<string, string> = {}) {
  return new TypeEmitter(adapter, selections, (selection) => adapter.component('shop', selection.component), knownDifferences);
}

describe('types emitted from a contract along a selection (scripts/contract-types.ts)', () => {
  it('splits a field list at spaces and commas outside braces', () => {
    expect(parseFields('Id  Kind:string Link{Url,Rel}\nLines')).toEqual([
      { name: 'Id' },
      { name: 'Kind', type: 'string' },
      { name: 'Link', fields: [{ name: 'Url' }, { name: 'Rel' }] },
      { name: 'Lines' },
    ]);
  });

  it('marks `Name!` required, in inline objects too', () => {
    expect(parseFields('Id! Link!{Url!,Rel} Kind!:string')).toEqual([
      { name: 'Id', required: true },
      { name: 'Link', required: true, fields: [{ name: 'Url', required: true }, { name: 'Rel' }] },
      { name: 'Kind', required: true, type: 'string' },
    ]);
    const text = emitter({ ShopOrder: { component: 'Order', fields: 'Id! Link{Url!,Rel}' } }).render('Generated.');
    expect(text).toContain('export interface ShopOrder {\n  Id: string;\n  Link?: {\n    Url: string;\n    Rel?: string;\n  };\n}');
  });

  it('prints an enum alias as prettier does: the union alone on the next line when only that fits, else one member a line', () => {
    const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
    const enums = { Month: { type: 'string', enum: months }, Many: { type: 'string', enum: [...months, ...months.map((m) => `${m}End`)] } };
    const properties = { Start: { $ref: '#/components/schemas/Month' }, End: { $ref: '#/components/schemas/Many' } };
    const calendar = new OpenApiAdapter({ shop: { components: { schemas: { Period: { type: 'object', properties }, ...enums } } } });
    const selections = { ShopPeriod: { component: 'Period', fields: 'Start End' } };
    const text = new TypeEmitter(calendar, selections, (selection) => calendar.component('shop', selection.component), {}).render('x');
    expect(text).toContain(`export type Month =\n  ${months.map((month) => `'${month}'`).join(' | ')};\n`);
    expect(text).toContain("export type Many =\n  | 'January'\n  | 'February'\n");
  });

  it('types each field as the contract does: enums as unions, nullable, nested components by their selected type, inline objects', () => {
    const text = emitter({
      ShopLine: { component: 'Line', fields: 'Amount Taxed' },
      ShopPerson: { component: 'Person', fields: 'Name' },
      ShopOrder: { component: 'Order', doc: 'An order.', fields: 'Id Kind State Note Count Lines Buyer Seller:ShopPerson Link{Url}' },
    }).render('Generated.', 'export interface Extra {}');
    expect(text).toBe(
      [
        '/** Generated. */',
        "export type Kind = 'SALE' | 'RETURN';",
        'export interface ShopLine {\n  Amount?: number;\n  Taxed?: boolean;\n}',
        'export interface ShopPerson {\n  Name?: string;\n}',
        [
          '/** An order. */',
          'export interface ShopOrder {',
          '  Id?: string;',
          '  Kind?: Kind;',
          "  State?: 'OPEN' | 'PAID';",
          '  Note?: string | null;',
          '  Count?: number;',
          '  Lines?: ShopLine[];',
          '  Buyer?: ShopPerson;',
          '  Seller?: ShopPerson;',
          '  Link?: {\n    Url?: string;\n  };',
          '}',
        ].join('\n'),
        'export interface Extra {}\n',
      ].join('\n\n'),
    );
    const cutter = new ContractCutter(adapter, { name: 'emitted.ts', text }, {});
    cutter.named('Order', adapter.component('shop', 'Order'), 'ShopOrder');
    expect(cutter.problems).toEqual([]);
  });

  it('refuses a field the contract lacks unless a known difference gives its reason and the selection its type', () => {
    expect(() => emitter({ ShopLine: { component: 'Line', fields: 'Amount Code:string' } }).render('x')).toThrow(
      'ShopLine.Code is not in the contract',
    );
    const text = emitter({ ShopLine: { component: 'Line', fields: 'Amount Code:string' } }, { 'ShopLine.Code': 'newer versions send it' }).render(
      'x',
    );
    expect(text).toContain('  /** Not in the contract: newer versions send it. */\n  Code?: string;\n');
  });

  it('asks for the type by name where several selected types view one component', () => {
    const selections = {
      ShopPerson: { component: 'Person', fields: 'Name' },
      ShopContact: { component: 'Person', fields: 'Name Email' },
      ShopOrder: { component: 'Order', fields: 'Buyer' },
    };
    expect(() => emitter(selections).render('x')).toThrow('ShopOrder.Buyer: name its type (Name:Type), 2 selected types view Person');
  });

  it('prints a union too long for one line one member a line, as prettier does', () => {
    const long = new OpenApiAdapter({
      shop: {
        components: {
          schemas: { Code: { type: 'object', properties: { Value: { type: 'string', enum: Array.from({ length: 30 }, (_, i) => `CODE${i}`) } } } },
        },
      },
    });
    const text = new TypeEmitter(long, { ShopCode: { component: 'Code', fields: 'Value' } }, (s) => long.component('shop', s.component), {}).render(
      'x',
    );
    expect(text).toContain("  Value?:\n    | 'CODE0'\n    | 'CODE1'\n");
    expect(text).toContain("    | 'CODE29';\n}");
  });
});
