/** Employees: Xero keeps a name and a status; department, manager, dates, number, title and salary are payroll's. */
import { xeroIso } from '../dates.ts';
import type { XeroEmployee } from '../types.ts';
import { text, type Mapped } from './common.ts';
import { UNFILLED } from './unfilled.ts';

const STATUSES: Readonly<Record<string, Mapped<'employee'>['status']>> = { ACTIVE: 'active', ARCHIVED: 'inactive' };

/** DELETED never gets here (a tombstone); GDPRREQUEST, a person asking to be forgotten, is unknown. */
export function mapEmployee(e: XeroEmployee): Mapped<'employee'> {
  return {
    ...UNFILLED.employee,
    platform_id: e.EmployeeID ?? '',
    first_name: e.FirstName ?? '',
    last_name: text(e.LastName),
    status: STATUSES[e.Status ?? ''] ?? 'unknown',
    custom_fields: {},
    updated_at: xeroIso(e.UpdatedDateUTC),
  };
}
