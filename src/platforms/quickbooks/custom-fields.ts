/**
 * QuickBooks Online's custom fields, as its Accounting API exposes them: the up to three string fields of sales forms,
 * defined in Preferences (SalesFormsPrefs.CustomField: groups of name/value pairs, `SalesFormsPrefs.UseSalesCustom<n>`
 * a boolean that turns field n on, `SalesFormsPrefs.SalesCustomName<n>` its label). On an invoice a value is
 * `CustomField[{DefinitionId: "<n>", StringValue}]`, so n is the key. QBO keeps no custom fields the API exposes on
 * bills, expenses, payments or journal entries, nor on lines: those are empty lists (the business can define none).
 */
import type { ConnectorContext, CustomFieldDefinition, CustomFieldDefinitions, CustomFieldObject } from '../connector.ts';
import { preferences } from './client.ts';
import type { QboPreferences } from './generated/native.ts';

/** QBO's sales forms have three custom field slots. */
const SLOTS = ['1', '2', '3'] as const;
const NONE: CustomFieldDefinitions = { entity: [], lineItems: [] };

/** The name/value pairs of SalesFormsPrefs.CustomField, by name (`SalesFormsPrefs.SalesCustomName1` → its value). */
function salesFormSettings(prefs: QboPreferences | undefined): Map<string, string | boolean> {
  const settings = new Map<string, string | boolean>();
  for (const group of prefs?.SalesFormsPrefs?.CustomField ?? []) {
    for (const field of group.CustomField ?? []) {
      const value = field.Type === 'BooleanType' ? field.BooleanValue : field.StringValue;
      if (field.Name !== undefined && value !== undefined) settings.set(field.Name, value);
    }
  }
  return settings;
}

/** The sales-form fields turned on and named, in slot order. */
export function salesFormCustomFields(prefs: QboPreferences | undefined): CustomFieldDefinition[] {
  const settings = salesFormSettings(prefs);
  return SLOTS.flatMap((slot) => {
    const name = settings.get(`SalesFormsPrefs.SalesCustomName${slot}`);
    if (settings.get(`SalesFormsPrefs.UseSalesCustom${slot}`) !== true || typeof name !== 'string' || name.trim() === '') return [];
    return [{ key: slot, name, description: '', required: false, type: 'string', options: [], default: null }];
  });
}

export async function quickbooksCustomFields(ctx: ConnectorContext, type: CustomFieldObject): Promise<CustomFieldDefinitions> {
  if (type !== 'invoice') return NONE;
  return { entity: salesFormCustomFields(await preferences(ctx)), lineItems: [] };
}
