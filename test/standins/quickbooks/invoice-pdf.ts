/**
 * The stand-in's rendering of an invoice for GET invoice/{id}/pdf: number, dates, customer, lines, total and balance
 * as text in a minimal PDF (QBO's own layout is not part of its contract; tests check these lines).
 */
import { textPdf } from '../../../src/platforms/pdf.ts';
import { isJson, type Json } from './fixtures.ts';

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
const refName = (ref: unknown): string => (isJson(ref) ? text(ref.name ?? ref.value) : '');

function lineText(line: Json): string {
  return `${text(line.Description) || text(line.DetailType)}   ${text(line.Amount)}`;
}

export function invoicePdf(invoice: Json): Buffer {
  const number = text(invoice.DocNumber);
  const currency = isJson(invoice.CurrencyRef) ? text(invoice.CurrencyRef.value) : '';
  const lines = Array.isArray(invoice.Line) ? invoice.Line.filter(isJson).filter((line) => line.DetailType !== 'SubTotalLineDetail') : [];
  return textPdf(`Invoice ${number}`, [
    `INVOICE ${number}`,
    `Date: ${text(invoice.TxnDate)}    Due: ${text(invoice.DueDate)}`,
    `Bill to: ${refName(invoice.CustomerRef)}`,
    '',
    ...lines.map(lineText),
    '',
    `Total: ${text(invoice.TotalAmt)} ${currency}`,
    `Balance due: ${text(invoice.Balance)} ${currency}`,
  ]);
}
