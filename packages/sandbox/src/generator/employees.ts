/**
 * The business's people: a managing director, a head for each department reporting to the director, and staff
 * reporting to the head of their department. Drawn from a generator of their own (derived from the seed) after
 * every other record, so adding them changed none of the books generated before.
 */
import { addDays, daysBetween, stamp } from '../dates.ts';
import { formatCents } from '../money.ts';
import type { NativeEmployee } from '../native.ts';
import { deriveSeed, Rng } from '../prng.ts';
import type { Emitter } from './emitter.ts';
import { emailFor, personName } from './names.ts';
import { DEPARTMENT_NAMES, type Reference } from './reference.ts';

/** Job titles per department: its head's, then its staff's. */
const TITLES: Readonly<Record<(typeof DEPARTMENT_NAMES)[number], readonly [string, readonly string[]]>> = {
  Sales: ['Head of Sales', ['Account Executive', 'Sales Associate', 'Sales Coordinator']],
  Operations: ['Operations Manager', ['Warehouse Associate', 'Logistics Coordinator', 'Purchasing Officer']],
  Finance: ['Finance Manager', ['Accountant', 'Bookkeeper', 'Payroll Specialist']],
  Marketing: ['Marketing Manager', ['Marketing Specialist', 'Designer', 'Content Writer']],
  'Field Sales': ['Field Sales Lead', ['Field Sales Representative']],
};

/** Employees of a business of about `size` records: a few for small books, tens for large ones. */
export function employeeCount(size: number): number {
  return Math.min(60, Math.max(DEPARTMENT_NAMES.length + 2, Math.round(Math.sqrt(size) / 3)));
}

/** Whole hundreds of the currency, in cents. */
function salaryCents(rng: Rng, from: number, to: number): number {
  return rng.int(from / 100, to / 100) * 10_000;
}

export function generateEmployees(seed: number, size: number, out: Emitter, ref: Reference, asOf: string): NativeEmployee[] {
  const rng = new Rng(deriveSeed(seed, 'employee'));
  const start = ref.company.CreatedAt.slice(0, 10);
  const domain = ref.company.TradingName;
  const employees: NativeEmployee[] = [];
  const make = (title: string, departmentId: string, manager: NativeEmployee | undefined, hireDate: string, salary: number): NativeEmployee => {
    const person = personName(rng);
    // Records of people hired before the books began were entered when the books began.
    const createdAt = stamp(hireDate < start ? start : hireDate, rng.int(28_800, 64_800));
    const n = employees.length + 1;
    const employee: NativeEmployee = {
      Id: out.nextId('employee'),
      CreatedAt: createdAt,
      UpdatedAt: createdAt,
      EmployeeNumber: `E${String(n).padStart(4, '0')}`,
      FirstName: person.first,
      LastName: person.last,
      JobTitle: title,
      Email: emailFor(`${person.first}.${person.last}`, domain),
      DepartmentId: departmentId,
      HireDate: hireDate,
      Status: 'Active',
      AnnualSalary: formatCents(salary),
      CustomFields: [
        { Name: 'Pay frequency', Value: rng.pick(['Monthly', 'Semi-monthly', 'Biweekly']) },
        { Name: 'Remote', Value: rng.chance(0.3) ? 'Yes' : 'No' },
      ],
    };
    if (manager !== undefined) employee.ManagerId = manager.Id;
    employees.push(employee);
    out.push('employee', employee);
    return employee;
  };

  const departments = DEPARTMENT_NAMES.map((name, n) => ({ name, id: ref.departments[n] ?? '' })).filter((d) => d.id !== '');
  const operations = departments.find((d) => d.name === 'Operations') ?? departments[0];
  if (operations === undefined) return employees;
  const director = make(
    'Managing Director',
    operations.id,
    undefined,
    addDays(start, -rng.int(700, 1_500)),
    salaryCents(rng, 12_000_000, 18_000_000),
  );
  const heads = departments.map((d) => ({
    department: d,
    head: make(TITLES[d.name][0], d.id, director, addDays(start, -rng.int(30, 690)), salaryCents(rng, 7_000_000, 12_000_000)),
  }));
  const last = addDays(asOf, -14);
  for (let n = employees.length; n < employeeCount(size); n++) {
    const { department, head } = rng.pick(heads);
    // Hired after their manager, by two weeks before asOf.
    const hireDate = addDays(head.HireDate, rng.int(1, Math.max(1, daysBetween(head.HireDate, last))));
    const employee = make(rng.pick(TITLES[department.name][1]), department.id, head, hireDate, salaryCents(rng, 3_500_000, 7_500_000));
    const roll = rng.next();
    if (roll < 0.12 && hireDate < last) {
      employee.Status = 'Terminated';
      employee.EndDate = addDays(hireDate, rng.int(1, daysBetween(hireDate, last)));
      const ended = stamp(employee.EndDate, 61_200);
      if (ended > employee.CreatedAt) employee.UpdatedAt = ended;
    } else if (roll < 0.17) {
      employee.Status = 'OnLeave';
    }
  }
  return employees;
}
