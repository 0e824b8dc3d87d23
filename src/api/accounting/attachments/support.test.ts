import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../errors/catalogue.ts';
import { ATTACHMENT_PARENTS } from '../../../model/attachment.ts';
import { createSandboxConnector } from '../../../../packages/sandbox/src/index.ts';
import { getConnector, registerConnector } from '../../../platforms/registry.ts';
import { assertAttachedTo } from './support.ts';

// SANDBOX is a plugin the runtime registers (packages/sandbox): this test runs without one, and reads only its capabilities.
if (getConnector('SANDBOX') === undefined) registerConnector(createSandboxConnector());

function refusal(run: () => void): ServiceError | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
}

describe('assertAttachedTo', () => {
  it('lets SANDBOX read and take uploads of every document type with attachment paths', () => {
    for (const entity of ATTACHMENT_PARENTS) {
      for (const use of ['read', 'upload'] as const)
        expect(
          refusal(() => {
            assertAttachedTo({ platform: 'SANDBOX' }, entity, use);
          }),
          `${entity} ${use}`,
        ).toBeNull();
    }
  });

  it('answers ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM where the capability table says the platform lacks them', () => {
    for (const platform of ['XERO', 'QUICKBOOKS']) {
      for (const entity of ['bill', 'invoice', 'journal_entry'] as const)
        expect(
          refusal(() => {
            assertAttachedTo({ platform }, entity, 'read');
          }),
        ).toBeNull();
    }
    // QuickBooks reads its Purchases as expenses, so their attachables too; Xero reads no expenses.
    expect(
      refusal(() => {
        assertAttachedTo({ platform: 'QUICKBOOKS' }, 'expense', 'read');
      }),
    ).toBeNull();
    const expenses = refusal(() => {
      assertAttachedTo({ platform: 'XERO' }, 'expense', 'read');
    });
    expect(expenses?.code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
    expect(expenses?.message).toBe('Attachments of expenses are not supported on XERO; see docs/platforms.md.');
    for (const platform of ['XERO', 'QUICKBOOKS']) {
      expect(
        refusal(() => {
          assertAttachedTo({ platform }, 'bill', 'upload');
        })?.message,
      ).toBe(`Uploading attachments to bills is not supported on ${platform}; see docs/platforms.md.`);
    }
    expect(
      refusal(() => {
        assertAttachedTo({ platform: 'NO_SUCH_PLATFORM' }, 'bill', 'read');
      })?.code,
    ).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
  });

  it('leaves a connection without a platform yet to the readiness checks', () => {
    expect(
      refusal(() => {
        assertAttachedTo({ platform: null }, 'bill', 'read');
      }),
    ).toBeNull();
  });
});
