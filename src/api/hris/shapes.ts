/**
 * The reference's HRIS departments and organizations (2024-08-31, "List Departments", "List Organizations"): views of
 * objects the service stores already, the accounting department (which employees' department_id names) and the
 * company info (the business that employs them), in the reference's fields (docs/reference.md, "HRIS").
 */
import { Type, type TObject } from 'typebox';
import {
  CreatedAtProperty,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  Str,
  UpdatedAtProperty,
} from '../../model/shared.ts';

type Json = Record<string, unknown>;

const CustomFields = Type.Record(Type.String(), Type.Unknown(), { description: 'Custom fields by name; {} when the platform has none.' });
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const TIMES = (o: Json): Json => ({ created_at: o.created_at ?? null, updated_at: o.updated_at ?? null, last_synced_at: o.last_synced_at });
const raw = (o: Json): Json => (o.platform_data === undefined ? {} : { platform_data: o.platform_data });

export const HrisDepartmentSchema: TObject = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    manager_id: Type.Null({ description: 'No platform served today names a department manager: null.' }),
    parent_department_id: Nullable(Str('Service id of the parent department.'), 'Service id of the parent department; null at the top level.'),
    name: Str('Name of the department; "" when the platform has none.'),
    custom_fields: CustomFields,
    description: Type.Null({ description: 'No platform served today describes a department: null.' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A department of the business, as /accounting/departments serves it, in the HRIS fields.' },
);

export function hrisDepartment(department: Json): Json {
  return {
    id: department.id,
    platform_id: department.platform_id,
    manager_id: null,
    parent_department_id: department.parent_id ?? null,
    name: text(department.name) ?? '',
    custom_fields: {},
    description: null,
    ...TIMES(department),
    ...raw(department),
  };
}

const HrisAddressSchema = Type.Object(
  {
    city: Str('City; "" when not known.'),
    country: Str('Country as the platform gives it; "" when not known.'),
    street: Str('Street lines, joined by ", ".'),
    postal_code: Nullable(Str('Postal or ZIP code.'), 'Postal or ZIP code; null when not known.'),
    state: Nullable(Str('State, province or region.'), 'State, province or region; null when not known.'),
  },
  { additionalProperties: false },
);

export const HrisOrganizationSchema: TObject = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    tax_id: Nullable(Str('Tax number.'), 'Tax number of the business; null when not known.'),
    name: Str('Display name of the business (the legal name when it has none).'),
    contact_email: Nullable(Str('Email address.'), 'Email address of the business; null when not known.'),
    contact_phone: Nullable(Str('Phone number.'), 'Phone number of the business; null when not known.'),
    custom_fields: CustomFields,
    industry: Type.Null({ description: 'Not read from any platform served today: null.' }),
    legal_name: Nullable(Str('Legal name.'), 'Registered legal name; null when not known.'),
    logo_url: Type.Null({ description: 'Not read from any platform served today: null.' }),
    number_of_employees: Type.Null({ description: 'Not read from any platform served today: null (count GET /hris/employees).' }),
    website: Type.Null({ description: 'Not read from any platform served today: null.' }),
    address: Type.Union([HrisAddressSchema, Type.Null()], { description: "The business's first address; null when it has none." }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'The business that employs, as /accounting/company_info serves it, in the HRIS fields.' },
);

function hrisAddress(addresses: unknown): Json | null {
  const first: unknown = Array.isArray(addresses) ? addresses[0] : undefined;
  if (typeof first !== 'object' || first === null) return null;
  const a: Json = { ...first };
  const street = [a.address1, a.address2, a.address3].map(text).filter((line) => line !== null && line !== '');
  return {
    city: text(a.city) ?? '',
    country: text(a.country) ?? '',
    street: street.join(', '),
    postal_code: text(a.postal_code),
    state: text(a.region),
  };
}

export function hrisOrganization(company: Json): Json {
  return {
    id: company.id,
    platform_id: company.platform_id,
    tax_id: text(company.tax_number),
    name: text(company.name) ?? text(company.legal_name) ?? '',
    contact_email: text(company.email),
    contact_phone: text(company.phone),
    custom_fields: {},
    industry: null,
    legal_name: text(company.legal_name),
    logo_url: null,
    number_of_employees: null,
    website: null,
    address: hrisAddress(company.addresses),
    ...TIMES(company),
    ...raw(company),
  };
}
