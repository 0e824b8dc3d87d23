/**
 * The custom fields every SANDBOX business defines, per object: what GET /accounting/{entityType}/custom_fields
 * answers for a SANDBOX connection. Fixed, like a company's form settings, and the same for every seed: nothing in
 * the books is drawn from them, so generated books stay what they were. Objects without any (invoice payments,
 * journal entries) answer empty lists, as a platform whose business defined none does.
 */
import type { CustomFieldDefinition, CustomFieldDefinitions, CustomFieldObject } from '../../../src/platforms/connector.ts';

const text = (key: string, name: string, description: string, required = false): CustomFieldDefinition => ({
  key,
  name,
  description,
  required,
  type: 'string',
  options: [],
  default: null,
});

const NONE: CustomFieldDefinitions = { entity: [], lineItems: [] };

export const SANDBOX_CUSTOM_FIELDS: Readonly<Record<CustomFieldObject, CustomFieldDefinitions>> = {
  invoice: {
    entity: [
      text('PONumber', 'PO Number', "The customer's purchase order number, printed on the invoice."),
      {
        key: 'SalesRep',
        name: 'Sales Rep',
        description: 'Who made the sale.',
        required: false,
        type: 'select',
        options: [
          { text: 'Direct', value: 'DIRECT' },
          { text: 'Partner', value: 'PARTNER' },
          { text: 'Web shop', value: 'WEB' },
        ],
        default: 'DIRECT',
      },
      {
        key: 'RushOrder',
        name: 'Rush Order',
        description: 'Shipped ahead of the queue.',
        required: false,
        type: 'boolean',
        options: [],
        default: false,
      },
    ],
    lineItems: [text('ProjectCode', 'Project Code', 'The project the line is billed to.')],
  },
  bill: {
    entity: [
      text('ApprovalRef', 'Approval Reference', 'The reference of the approval the bill was paid under.'),
      {
        key: 'CostCentre',
        name: 'Cost Centre',
        description: 'Cost centres the bill is shared between.',
        required: false,
        type: 'multiselect',
        options: [
          { text: 'Operations', value: 'OPS' },
          { text: 'Sales', value: 'SALES' },
          { text: 'Administration', value: 'ADMIN' },
        ],
        default: null,
      },
    ],
    lineItems: [
      { key: 'BudgetLine', name: 'Budget Line', description: 'Budget line number.', required: false, type: 'number', options: [], default: null },
    ],
  },
  expense: { entity: [text('ReceiptNumber', 'Receipt Number', 'The number on the paper receipt.')], lineItems: [] },
  invoice_payment: NONE,
  journal_entry: NONE,
};
