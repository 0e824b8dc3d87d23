/** The organisation (GET /Organisation) and the tenant list (GET /connections) of a SANDBOX account. */
import type { NativeCompany } from '../../native.ts';
import { hashedUuid } from '../uuid-ids.ts';
import type { SimulatorBooks } from '../kit.ts';
import { msDate } from './dates.ts';
import type { Json } from './view.ts';

const VERSIONS: Readonly<Record<string, string>> = { AU: 'AU', NZ: 'NZ', GB: 'UK', US: 'US' };

export function renderOrganisation(tenantId: string, books: SimulatorBooks, company: NativeCompany | null): Json {
  const country = company?.Country ?? books.company.country;
  const base = {
    OrganisationID: tenantId,
    Name: company?.TradingName ?? books.company.name,
    BaseCurrency: company?.BaseCurrency ?? books.company.currency,
    CountryCode: country,
    Version: VERSIONS[country] ?? 'GLOBAL',
    OrganisationType: 'COMPANY',
    OrganisationEntityType: 'COMPANY',
    OrganisationStatus: 'ACTIVE',
    IsDemoCompany: false,
    PaysTax: true,
    Edition: 'BUSINESS',
    Class: 'PREMIUM',
    ShortCode: `!${tenantId.slice(0, 5)}`,
  };
  if (company === null) return base;
  return {
    ...base,
    LegalName: company.LegalName,
    TaxNumber: company.TaxNumber,
    RegistrationNumber: company.CompanyNumber,
    LineOfBusiness: company.Industry,
    // Xero keeps the month the year ends in.
    FinancialYearEndMonth: ((company.FiscalYearStartMonth + 10) % 12) + 1,
    FinancialYearEndDay: new Date(Date.UTC(2001, ((company.FiscalYearStartMonth + 10) % 12) + 1, 0)).getUTCDate(),
    Addresses: [
      {
        AddressType: 'POBOX',
        AddressLine1: company.Address.Line1,
        City: company.Address.City,
        Region: company.Address.Region,
        PostalCode: company.Address.PostalCode,
        Country: company.Address.Country,
      },
    ],
    Phones: [{ PhoneType: 'OFFICE', PhoneNumber: company.Phone }],
    CreatedDateUTC: msDate(company.CreatedAt),
  };
}

/** An organisation a grant reaches, as GET /connections lists it (the stand-in's too). */
export function xeroConnection(id: string, authEventId: string, tenantId: string, tenantName: string, created: string): Json {
  return {
    id,
    authEventId,
    tenantId,
    tenantType: 'ORGANISATION',
    tenantName,
    createdDateUtc: created,
    updatedDateUtc: created,
  };
}

/** GET /connections: the one organisation the grant reaches. */
export function renderConnections(tenantId: string, books: SimulatorBooks, company: NativeCompany | null): Json[] {
  const created = (company?.CreatedAt ?? '2020-01-01T00:00:00.000Z').replace(/Z$/, '');
  const name = company?.TradingName ?? books.company.name;
  return [xeroConnection(hashedUuid(`connection:${books.accountKey}`), hashedUuid(`auth:${books.accountKey}`), tenantId, name, created)];
}
