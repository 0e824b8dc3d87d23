/** Unified → native payloads of the connector's actions: attachment uploads and bank feed statement lines. */
import type { BankFeedTransactionInput, UploadedFile } from '../../../../src/platforms/connector.ts';
import type { NativeFeedLine, NativeUpload } from '../client.ts';
import type { AttachmentParentType } from '../collections.ts';
import { decimal } from './common.ts';

/**
 * The bare media type of an upload: parameters such as "; charset=utf-8" are dropped, since the
 * platform keeps type/subtype only (it serves the content as a data: URL with ";base64" after the type).
 */
export function mediaType(contentType: string): string {
  const bare = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return bare === '' ? 'application/octet-stream' : bare;
}

export function uploadBody(parentType: AttachmentParentType, parentId: string, file: UploadedFile): NativeUpload {
  return {
    ParentType: parentType,
    ParentId: parentId,
    FileName: file.fileName,
    ContentType: mediaType(file.contentType),
    Content: file.content.toString('base64'),
  };
}

/**
 * One statement line: amounts as decimal text (more than 2 decimals go through as they are, for the
 * platform to refuse naming the line), dates as the YYYY-MM-DD of the given date or date-time (the
 * day the bank booked it, in the bank's own offset).
 */
export function feedLine(input: BankFeedTransactionInput): NativeFeedLine {
  const line: NativeFeedLine = {
    InstitutionTxnId: input.internal_transaction_id,
    Date: input.transaction_date.slice(0, 10),
    Amount: decimal(input.amount),
    Description: input.description,
  };
  if (input.payee_name != null && input.payee_name !== '') line.Payee = input.payee_name;
  if (input.reference != null && input.reference !== '') line.Reference = input.reference;
  if (input.running_balance != null) line.RunningBalance = decimal(input.running_balance);
  return line;
}
