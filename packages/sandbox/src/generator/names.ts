/** Word lists for invented names, addresses and descriptions. */
import type { Rng } from '../prng.ts';

const FIRST = [
  'Ada',
  'Ben',
  'Chloe',
  'Dev',
  'Elena',
  'Farid',
  'Grace',
  'Hugo',
  'Ines',
  'Jonas',
  'Kira',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Priya',
  'Quinn',
  'Rosa',
  'Sam',
  'Tariq',
  'Uma',
  'Victor',
  'Wen',
  'Yara',
  'Zoe',
];
const LAST = [
  'Adams',
  'Baker',
  'Chen',
  'Diaz',
  'Evans',
  'Fischer',
  'Garcia',
  'Hughes',
  'Ito',
  'Jensen',
  'Khan',
  'Lopez',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Patel',
  'Rossi',
  'Silva',
  'Tanaka',
  'Urban',
  'Vega',
  'Weber',
  'Young',
  'Zhang',
];
const ADJECTIVES = [
  'Acme',
  'Blue',
  'Bright',
  'Cedar',
  'Coastal',
  'Golden',
  'Granite',
  'Harbor',
  'Iron',
  'Maple',
  'Northern',
  'Oak',
  'Pioneer',
  'Prime',
  'Red',
  'Silver',
  'Summit',
  'Swift',
  'Union',
  'Valley',
  'Western',
  'Apex',
  'Atlas',
  'Beacon',
];
const NOUNS = [
  'Analytics',
  'Bakery',
  'Builders',
  'Cleaning',
  'Consulting',
  'Design',
  'Electric',
  'Foods',
  'Freight',
  'Hardware',
  'Logistics',
  'Media',
  'Metals',
  'Office',
  'Packaging',
  'Paper',
  'Plumbing',
  'Printing',
  'Software',
  'Supply',
  'Textiles',
  'Tools',
  'Travel',
  'Wireless',
];
const SUFFIXES = ['Inc', 'LLC', 'Ltd', 'Co', 'Group', 'Partners', 'Corp', 'GmbH'];
const STREETS = ['Main St', 'High St', 'Market St', 'Park Ave', 'Oak Rd', 'Mill Ln', 'Station Rd', 'River Rd', 'King St', 'Church St'];

export interface Place {
  city: string;
  region: string;
  postal: () => string;
  country: string;
  countryCode: string;
}

export function personName(rng: Rng): { first: string; last: string } {
  return { first: rng.pick(FIRST), last: rng.pick(LAST) };
}

/** Company names, unique within one generator run. */
export class CompanyNames {
  readonly #used = new Set<string>();
  readonly #rng: Rng;

  constructor(rng: Rng) {
    this.#rng = rng;
  }

  next(): string {
    const base = `${this.#rng.pick(ADJECTIVES)} ${this.#rng.pick(NOUNS)} ${this.#rng.pick(SUFFIXES)}`;
    let name = base;
    for (let n = 2; this.#used.has(name); n++) name = `${base} ${n}`;
    this.#used.add(name);
    return name;
  }

  /** Registers a name chosen elsewhere (renames) so later names stay unique. */
  reserve(name: string): void {
    this.#used.add(name);
  }
}

export function street(rng: Rng): string {
  return `${rng.int(1, 9999)} ${rng.pick(STREETS)}`;
}

export function emailFor(name: string, domainHint: string): string {
  const slug =
    domainHint
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '')
      .slice(0, 20) || 'example';
  return `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@${slug}.example`;
}

/** A deterministic website for a business name (no randomness, so generated books stay as they were). */
export function websiteFor(name: string): string {
  return `https://www.${
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '')
      .slice(0, 30) || 'example'
  }.example`;
}

export function phone(rng: Rng): string {
  return `+1-555-${String(rng.int(100, 999))}-${String(rng.int(1000, 9999))}`;
}

export const EXPENSE_WORDS = [
  'Monthly service',
  'Supplies',
  'Maintenance',
  'Consulting hours',
  'Licence renewal',
  'Freight charges',
  'Materials',
  'Repairs',
  'Subscription',
  'Equipment rental',
];
export const SALES_WORDS = [
  'Consulting services',
  'Product delivery',
  'Installation',
  'Support plan',
  'Training session',
  'Custom order',
  'Annual licence',
  'Maintenance contract',
];
