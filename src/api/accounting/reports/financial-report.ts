/**
 * The connection's financial report (reference: "Financial Reports", a download of the business's main financial
 * statements): its company info and every stored balance sheet, income statement and cash flow statement, read from
 * the stored copy when the report's address is followed. TREE keeps each statement's row tree; FLAT lists only the
 * rows that stand for an account, each without children, in the tree's order.
 */
import type { ConnectionRecord } from '../../../connections/types.ts';
import type { UnifiedObjectType } from '../../../model/object-types.ts';
import { getConnector } from '../../../platforms/index.ts';
import type { Services } from '../../../services.ts';
import type { RecordRow } from '../../../sql/list-records.ts';
import { presenterOf, served } from '../../../store/served.ts';
import { listPage } from '../../data/list-query.ts';

export type ReportStructure = 'TREE' | 'FLAT';

export const STATEMENT_TYPES = ['balance_sheet', 'income_statement', 'cash_flow_statement'] as const satisfies readonly UnifiedObjectType[];

/** The sections of each statement that hold row trees. */
const TREE_SECTIONS: Record<(typeof STATEMENT_TYPES)[number], readonly string[]> = {
  balance_sheet: ['assets', 'liabilities', 'equity'],
  income_statement: ['income', 'cost_of_sales', 'expenses'],
  cash_flow_statement: ['operating_activities', 'investing_activities', 'financing_activities'],
};

/** Statements are monthly and kept for two years: one page holds them all. */
const STATEMENTS_PAGE = 500;

export function readsStatements(connection: ConnectionRecord, type: UnifiedObjectType): boolean {
  const connector = connection.platform === null ? undefined : getConnector(connection.platform);
  return connector?.objects[type]?.capabilities.read === true;
}

async function storedRows(services: Services, connection: ConnectionRecord, type: UnifiedObjectType, limit: number): Promise<RecordRow[]> {
  const page = await listPage(
    services.pool,
    connection,
    type,
    { limit, sort: type === 'company_info' ? undefined : 'end_date DESC' },
    false,
    services.config.readLimits,
  );
  return page.rows;
}

/** The connection's company info as served, or null when none is stored. */
export async function storedCompanyInfo(
  services: Services,
  connection: ConnectionRecord,
): Promise<{ object: Record<string, unknown>; row: RecordRow } | null> {
  const [row] = await storedRows(services, connection, 'company_info', 1);
  return row === undefined ? null : { object: served('company_info', row, false, presenterOf(services)), row };
}

interface Row {
  account_id: string;
  items: Row[];
  [field: string]: unknown;
}

const isRow = (value: unknown): value is Row =>
  typeof value === 'object' && value !== null && 'account_id' in value && 'items' in value && Array.isArray(value.items);

/** The account rows of a tree, depth first, each without its children. */
function accountRows(rows: readonly unknown[]): Row[] {
  return rows.filter(isRow).flatMap((row) => [...(row.account_id === '' ? [] : [{ ...row, items: [] }]), ...accountRows(row.items)]);
}

function flattened(type: (typeof STATEMENT_TYPES)[number], statement: Record<string, unknown>): Record<string, unknown> {
  const flat: Record<string, unknown> = { ...statement };
  for (const section of TREE_SECTIONS[type]) {
    const root = statement[section];
    if (isRow(root)) flat[section] = { ...root, items: accountRows(root.items) };
  }
  return flat;
}

type Served = Record<string, unknown>;

export interface ReportDocument {
  generated_at: string;
  structure: ReportStructure;
  company_info: Served | null;
  balance_sheets: Served[];
  income_statements: Served[];
  cash_flows: Served[];
}

async function statementsOf(
  services: Services,
  connection: ConnectionRecord,
  type: (typeof STATEMENT_TYPES)[number],
  structure: ReportStructure,
): Promise<Served[]> {
  if (!readsStatements(connection, type)) return [];
  const presenter = presenterOf(services);
  const statements = (await storedRows(services, connection, type, STATEMENTS_PAGE)).map((row) => served(type, row, false, presenter));
  return structure === 'TREE' ? statements : statements.map((statement) => flattened(type, statement));
}

/** The report document: company info and statements as their GET endpoints serve them, newest month first. */
export async function financialReport(services: Services, connection: ConnectionRecord, structure: ReportStructure): Promise<ReportDocument> {
  const company = await storedCompanyInfo(services, connection);
  return {
    generated_at: new Date().toISOString(),
    structure,
    company_info: company?.object ?? null,
    balance_sheets: await statementsOf(services, connection, 'balance_sheet', structure),
    income_statements: await statementsOf(services, connection, 'income_statement', structure),
    cash_flows: await statementsOf(services, connection, 'cash_flow_statement', structure),
  };
}
