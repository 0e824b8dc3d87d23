/** Writes of tax codes: the platform computes total and effective (compounded) rates from the components. */
import { formatRate } from '../money.ts';
import type { NativeTaxCode, NativeTaxComponent } from '../native.ts';
import { invalid } from '../native-error.ts';
import { taxRates } from '../books.ts';
import type { Unit } from '../store/unit.ts';
import { pick } from './documents.ts';
import { existing, ids, list, loadOr404, oneOf, rate, text, unique, type Body } from './validate.ts';

async function writeTaxCode(unit: Unit, body: Body, base: NativeTaxCode | null): Promise<NativeTaxCode> {
  const record: NativeTaxCode = base ?? {
    Id: unit.nextId('tax_rate'),
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    Code: '',
    Name: '',
    Status: 'Active',
    Components: [],
    TotalRate: '0.000',
    EffectiveRate: '0.000',
    SubsidiaryIds: [],
  };
  const name = base === null ? text(body, 'Name', true) : pick(body, 'Name', () => text(body, 'Name', true), base.Name);
  await unique(unit, 'tax_rate', 'Name', name, base?.Id ?? null);
  record.Name = name;
  record.Code =
    (base === null ? text(body, 'Code') : pick(body, 'Code', () => text(body, 'Code'), base.Code)) ??
    name
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '')
      .slice(0, 12);
  await unique(unit, 'tax_rate', 'Code', record.Code, base?.Id ?? null);
  if (base === null || Object.hasOwn(body, 'Components')) {
    const components = list(body, 'Components', true);
    if (components.length === 0) throw invalid('RequiredField', 'Components must have at least one component', 'Components');
    record.Components = [];
    for (const [n, c] of components.entries()) {
      const field = `Components[${n}]`;
      const flag = (key: string, fallback: boolean): boolean => {
        const value = c[key];
        if (value === undefined || value === null) return fallback;
        if (typeof value !== 'boolean') throw invalid('InvalidField', `${field}.${key} must be true or false`, `${field}.${key}`);
        return value;
      };
      const rateText = c.Rate;
      if (typeof rateText !== 'string' && typeof rateText !== 'number') throw invalid('RequiredField', `${field}.Rate is required`, `${field}.Rate`);
      const component: NativeTaxComponent = {
        Name: text(c, 'Name') ?? name,
        Rate: formatRate(rate(String(rateText), `${field}.Rate`)),
        Compound: flag('Compound', false),
        Purchases: flag('Purchases', true),
        Sales: flag('Sales', true),
      };
      const agency = text(c, 'AgencyId');
      if ((await existing(unit, 'tax_agency', agency, `${field}.AgencyId`)) !== undefined) component.AgencyId = agency;
      record.Components.push(component);
    }
    const rates = taxRates(record.Components);
    record.TotalRate = formatRate(rates.total);
    record.EffectiveRate = formatRate(rates.effective);
  }
  if (base === null || Object.hasOwn(body, 'Status')) record.Status = oneOf(body, 'Status', ['Active', 'Archived'] as const, 'Active');
  if (base === null || Object.hasOwn(body, 'SubsidiaryIds')) {
    record.SubsidiaryIds = ids(body, 'SubsidiaryIds');
    for (const id of record.SubsidiaryIds) await existing(unit, 'subsidiary', id, 'SubsidiaryIds');
  }
  if (base === null) unit.create('tax_rate', record);
  else unit.touch('tax_rate', record);
  return record;
}

export const taxCodeWriter = {
  create: (unit: Unit, body: Body) => writeTaxCode(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeTaxCode(unit, body, await loadOr404(unit, 'tax_rate', id)),
  delete: async (unit: Unit, id: string) => {
    await loadOr404(unit, 'tax_rate', id);
    const user = await unit.referencedBy(
      ['bill', 'bill_credit_memo', 'invoice', 'invoice_credit_memo', 'expense', 'purchase_order', 'journal_entry', 'bank_deposit', 'sales_order'],
      id,
    );
    if (user !== null) throw invalid('InUse', `tax code ${id} is used by ${user}; archive it instead`, 'Id');
    unit.remove('tax_rate', id);
  },
};
