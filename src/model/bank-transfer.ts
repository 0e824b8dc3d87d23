/** Bank transfer: moves money between two asset accounts of the same currency. */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  PlatformUrlProperty,
  Str,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

export const BankTransferSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    class_id: Nullable(Str('Service id of the class.'), 'Service id of the class the transfer is tracked under.'),
    department_id: Nullable(Str('Service id of the department.'), 'Service id of the department the transfer is tracked under.'),
    location_id: Nullable(Str('Service id of the location.'), 'Service id of the location the transfer is tracked under.'),
    project_id: Nullable(Str('Service id of the project.'), 'Service id of the project the transfer is tracked under (some platforms).'),
    credit_account_id: Nullable(Str('Service id of the account credited.'), 'Service id of the account credited (money leaves it).'),
    debit_account_id: Nullable(Str('Service id of the account debited.'), 'Service id of the account debited (money arrives in it).'),
    subsidiary_id: Nullable(Str('Service id of the subsidiary.'), 'Service id of the subsidiary the transfer belongs to.'),
    transaction_date: Timestamp('When the transfer was made (ISO 8601).'),
    currency_code: CurrencyCodeEnum('Currency of the transfer.'),
    total_amount: Type.Number({ description: 'Amount transferred.' }),
    memo: Nullable(Str('Memo of the transfer.'), 'Memo of the transfer.'),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'Moves money between two asset accounts of the same currency.' },
);

export type BankTransfer = Static<typeof BankTransferSchema>;
