import { describe, expect, it } from 'vitest';
import { operationIdOf, singular } from './operation-ids.ts';

describe('operationIdOf', () => {
  it('names resource routes by verb and resource', () => {
    expect(operationIdOf('GET', '/versioned/accounting/bills')).toBe('listBills');
    expect(operationIdOf('GET', '/versioned/accounting/bills/:id')).toBe('getBill');
    expect(operationIdOf('POST', '/versioned/accounting/bills')).toBe('createBill');
    expect(operationIdOf('PATCH', '/versioned/accounting/bills/:id')).toBe('updateBill');
    expect(operationIdOf('DELETE', '/versioned/accounting/bills/:id')).toBe('deleteBill');
    expect(operationIdOf('GET', '/versioned/accounting/bank_feeds/accounts/{id}')).toBe('getBankFeedAccount');
    expect(operationIdOf('GET', '/versioned/connections')).toBe('listConnections');
  });

  it('qualifies areas whose resources share a name with accounting', () => {
    expect(operationIdOf('GET', '/versioned/commerce/customers')).toBe('listCommerceCustomers');
    expect(operationIdOf('GET', '/dashboard/api/connections/:id')).toBe('getDashboardConnection');
  });

  it('reads singletons with get and set', () => {
    expect(operationIdOf('GET', '/versioned/accounting/company_info')).toBe('getCompanyInfo');
    expect(operationIdOf('PUT', '/admin/organizations/:id/webhook')).toBe('setOrganizationWebhook');
  });

  it('takes the explicit name of an action route', () => {
    expect(operationIdOf('POST', '/versioned/connections/incremental_sync')).toBe('startIncrementalSync');
    expect(operationIdOf('POST', '/versioned/accounting/bills/:id/attachments')).toBe('uploadBillAttachment');
  });

  it('singularises the plurals our URLs use', () => {
    expect(['entries', 'expenses', 'classes', 'tax_agencies', 'bills', 'company_info', 'access'].map(singular)).toEqual([
      'entry',
      'expense',
      'class',
      'tax_agency',
      'bill',
      'company_info',
      'access',
    ]);
  });
});
