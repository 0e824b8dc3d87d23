/** Writes of the small lists: classes, departments (a name, a parent, a status) and payment terms. */
import type { NativeDepartment, NativeTerm } from '../native.ts';
import { invalid } from '../native-error.ts';
import { formatRate } from '../money.ts';
import type { Unit } from '../store/unit.ts';
import { existing, loadOr404, oneOf, rate, text, unique, type Body } from './validate.ts';

/** Records that may name a payment term (TermId); a term they use cannot be deleted. */
const TERM_USERS = ['bill', 'invoice', 'vendor', 'customer'] as const;

/** A class or department: a name unique among its kind, an optional parent of the same kind, a status. */
function trackingWriter(type: 'class' | 'department') {
  async function create(unit: Unit, body: Body): Promise<NativeDepartment> {
    const name = text(body, 'Name', true);
    await unique(unit, type, 'Name', name, null);
    const record: NativeDepartment = {
      Id: unit.nextId(type),
      CreatedAt: unit.at,
      UpdatedAt: unit.at,
      Name: name,
      Status: oneOf(body, 'Status', ['Active', 'Archived'] as const, 'Active'),
    };
    const parentId = text(body, 'ParentId');
    if ((await existing(unit, type, parentId, 'ParentId')) !== undefined) record.ParentId = parentId;
    unit.create(type, record);
    return record;
  }
  return {
    create,
    update: (_unit: Unit, id: string): Promise<NativeDepartment> =>
      Promise.reject(invalid('NotSupported', `${type} ${id} cannot be changed through the API`, 'Id')),
    delete: (_unit: Unit, id: string): Promise<void> =>
      Promise.reject(invalid('NotSupported', `${type} ${id} cannot be deleted through the API`, 'Id')),
  };
}

export const classWriter = trackingWriter('class');
export const departmentWriter = trackingWriter('department');

/** Whole days, 0 to 3,650 (ten years): a term's due and discount days. */
function days(body: Body, field: string, required: boolean): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (required) throw invalid('RequiredField', `${field} is required`, field);
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 3650)
    throw invalid('InvalidField', `${field} must be a whole number of days from 0 to 3650`, field);
  return value;
}

async function createTerm(unit: Unit, body: Body): Promise<NativeTerm> {
  const name = text(body, 'Name', true);
  await unique(unit, 'payment_term', 'Name', name, null);
  const record: NativeTerm = {
    Id: unit.nextId('payment_term'),
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    Name: name,
    DueDays: days(body, 'DueDays', true) ?? 0,
    Status: oneOf(body, 'Status', ['Active', 'Archived'] as const, 'Active'),
  };
  const discountDays = days(body, 'DiscountDays', false);
  const pct = body.DiscountPct;
  if (pct !== undefined && pct !== null) {
    if (typeof pct !== 'string' && typeof pct !== 'number') throw invalid('InvalidField', 'DiscountPct must be a percentage', 'DiscountPct');
    record.DiscountPct = formatRate(rate(String(pct), 'DiscountPct'));
  }
  // A discount needs both its days and its percentage, within the term.
  if ((discountDays === undefined) !== (record.DiscountPct === undefined))
    throw invalid('RequiredField', 'DiscountDays and DiscountPct go together', discountDays === undefined ? 'DiscountDays' : 'DiscountPct');
  if (discountDays !== undefined) {
    if (discountDays > record.DueDays) throw invalid('BusinessRule', 'DiscountDays cannot be after DueDays', 'DiscountDays');
    record.DiscountDays = discountDays;
  }
  unit.create('payment_term', record);
  return record;
}

export const termWriter = {
  create: createTerm,
  update: (_unit: Unit, id: string): Promise<NativeTerm> =>
    Promise.reject(invalid('NotSupported', `payment term ${id} cannot be changed through the API`, 'Id')),
  delete: async (unit: Unit, id: string): Promise<void> => {
    await loadOr404(unit, 'payment_term', id);
    const user = await unit.referencedBy(TERM_USERS, id);
    if (user !== null) throw invalid('InUse', `payment term ${id} is used by ${user}; archive it instead (Status: Archived)`, 'Id');
    unit.remove('payment_term', id);
  },
};
