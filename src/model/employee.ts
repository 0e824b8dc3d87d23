/**
 * Employee: a person working for the business. Not shown in the spec (named among the further accounting
 * endpoints); follows the reference's "Employees" (2024-08-31, HRIS), decisions in docs/reference.md.
 */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  Str,
  StringEnum,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

export const EMPLOYEE_STATUSES = ['active', 'inactive', 'terminated', 'unknown'] as const;

export type EmployeeStatus = (typeof EMPLOYEE_STATUSES)[number];

const CustomFieldValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], { description: 'Value of the custom field.' });

export const EmployeeSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    department_id: Nullable(Str('Service id of the department.'), 'Service id of the department the employee works in; null when none.'),
    manager_id: Nullable(Str('Service id of the manager.'), "Service id of the employee's manager (an employee); null when none."),
    hire_date: Nullable(Timestamp('When the employee was hired.'), 'When the employee was hired (ISO 8601); null when not known.'),
    termination_date: Nullable(Timestamp('When the employee left.'), 'When the employment ended (ISO 8601); null while employed or not known.'),
    first_name: Str('First name of the employee; "" when the platform has none.'),
    last_name: Nullable(Str('Last name of the employee.'), 'Last name of the employee; null when the platform has none.'),
    status: StringEnum(EMPLOYEE_STATUSES, 'Status of the employee.'),
    // Every key matches the pattern: additionalProperties adds nothing, and marks the object as keyed by the data.
    custom_fields: Type.Record(Type.String(), CustomFieldValue, {
      additionalProperties: true,
      description: 'Custom fields of the employee by name; {} when there are none.',
    }),
    employee_number: Nullable(Str('Employee number.'), 'Number of the employee for payroll and expenses; null when none.'),
    position: Nullable(Str('Job title.'), 'Job title of the employee; null when not known.'),
    salary: Nullable(
      Type.Number({ description: 'Gross yearly salary.' }),
      "Gross yearly salary in the company's currency; null when the platform does not say.",
    ),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A person employed by the business.' },
);

export type Employee = Static<typeof EmployeeSchema>;
