/** Country profiles of the invented business: currency, places, tax codes and agencies. */

export interface TaxComponentDef {
  name: string;
  rate: string;
  compound?: boolean;
  purchases: boolean;
  sales: boolean;
  agency: number;
}
export interface TaxCodeDef {
  code: string;
  name: string;
  components: TaxComponentDef[];
}

export interface Profile {
  country: string;
  currency: string;
  cities: readonly { city: string; region: string }[];
  postal: 'us' | 'uk' | 'au' | 'ca';
  agencies: readonly string[];
  taxCodes: readonly TaxCodeDef[];
}

const both = { purchases: true, sales: true };

export const PROFILES: readonly Profile[] = [
  {
    country: 'US',
    currency: 'USD',
    postal: 'us',
    cities: [
      { city: 'Sacramento', region: 'CA' },
      { city: 'Oakland', region: 'CA' },
      { city: 'Brooklyn', region: 'NY' },
      { city: 'Austin', region: 'TX' },
    ],
    agencies: ['California Department of Tax and Fee Administration', 'County Tax Collector', 'New York State Department of Taxation'],
    taxCodes: [
      {
        code: 'CA',
        name: 'California Sales Tax',
        components: [
          { name: 'CA State', rate: '6.000', agency: 0, ...both },
          { name: 'County', rate: '1.250', agency: 1, ...both },
          { name: 'District', rate: '1.000', agency: 1, ...both },
        ],
      },
      {
        code: 'NYC',
        name: 'New York City Sales Tax',
        components: [
          { name: 'NY State', rate: '4.000', agency: 2, ...both },
          { name: 'NYC Local', rate: '4.500', agency: 2, ...both },
          { name: 'MCTD', rate: '0.375', agency: 2, ...both },
        ],
      },
      { code: 'USE', name: 'Use Tax', components: [{ name: 'Use Tax', rate: '7.250', agency: 0, purchases: true, sales: false }] },
      { code: 'EX', name: 'Tax Exempt', components: [{ name: 'Exempt', rate: '0.000', agency: 0, ...both }] },
    ],
  },
  {
    country: 'GB',
    currency: 'GBP',
    postal: 'uk',
    cities: [
      { city: 'London', region: 'Greater London' },
      { city: 'Leeds', region: 'West Yorkshire' },
      { city: 'Bristol', region: 'Bristol' },
    ],
    agencies: ['HM Revenue & Customs'],
    taxCodes: [
      { code: 'S20', name: '20% VAT', components: [{ name: 'VAT', rate: '20.000', agency: 0, ...both }] },
      { code: 'R5', name: '5% VAT', components: [{ name: 'VAT', rate: '5.000', agency: 0, ...both }] },
      { code: 'Z0', name: 'Zero Rated', components: [{ name: 'VAT', rate: '0.000', agency: 0, ...both }] },
      { code: 'EX', name: 'Exempt', components: [{ name: 'Exempt', rate: '0.000', agency: 0, ...both }] },
    ],
  },
  {
    country: 'AU',
    currency: 'AUD',
    postal: 'au',
    cities: [
      { city: 'Sydney', region: 'NSW' },
      { city: 'Melbourne', region: 'VIC' },
      { city: 'Brisbane', region: 'QLD' },
    ],
    agencies: ['Australian Taxation Office'],
    taxCodes: [
      { code: 'GST', name: 'GST on Income', components: [{ name: 'GST', rate: '10.000', agency: 0, purchases: false, sales: true }] },
      { code: 'INP', name: 'GST on Expenses', components: [{ name: 'GST', rate: '10.000', agency: 0, purchases: true, sales: false }] },
      { code: 'FRE', name: 'GST Free', components: [{ name: 'GST', rate: '0.000', agency: 0, ...both }] },
    ],
  },
  {
    country: 'CA',
    currency: 'CAD',
    postal: 'ca',
    cities: [
      { city: 'Toronto', region: 'ON' },
      { city: 'Montreal', region: 'QC' },
      { city: 'Charlottetown', region: 'PE' },
    ],
    agencies: ['Canada Revenue Agency', 'Revenu Québec', 'PEI Finance'],
    taxCodes: [
      { code: 'GST', name: 'GST', components: [{ name: 'GST', rate: '5.000', agency: 0, ...both }] },
      { code: 'HST', name: 'HST ON', components: [{ name: 'HST', rate: '13.000', agency: 0, ...both }] },
      {
        code: 'GSTQST',
        name: 'GST/QST QC',
        components: [
          { name: 'GST', rate: '5.000', agency: 0, ...both },
          { name: 'QST', rate: '9.975', agency: 1, ...both },
        ],
      },
      // PST charged on the GST-inclusive amount: the compound case.
      {
        code: 'GSTPST',
        name: 'GST/PST PE',
        components: [
          { name: 'GST', rate: '5.000', agency: 0, ...both },
          { name: 'PST', rate: '10.000', compound: true, agency: 2, ...both },
        ],
      },
    ],
  },
];

/** Units of the currency per 1 USD, for the currency list. */
export const USD_RATES: Readonly<Record<string, { name: string; symbol: string; perUsd: number }>> = {
  USD: { name: 'US Dollar', symbol: '$', perUsd: 1 },
  EUR: { name: 'Euro', symbol: '€', perUsd: 0.92 },
  GBP: { name: 'Pound Sterling', symbol: '£', perUsd: 0.79 },
  CAD: { name: 'Canadian Dollar', symbol: 'CA$', perUsd: 1.36 },
  AUD: { name: 'Australian Dollar', symbol: 'A$', perUsd: 1.52 },
  JPY: { name: 'Yen', symbol: '¥', perUsd: 151.2 },
};

export function postalCode(kind: Profile['postal'], n: number): string {
  switch (kind) {
    case 'us':
      return String(10000 + (n % 89999));
    case 'uk':
      return `LS${1 + (n % 27)} ${1 + (n % 9)}AB`;
    case 'au':
      return String(2000 + (n % 7999));
    case 'ca':
      return `M${n % 10}V ${n % 10}A${(n >> 3) % 10}`;
  }
}
