/**
 * Vitest setup file (vitest.config.ts): a test whose app answered outside its OpenAPI document fails, with the list;
 * answers given outside any test (beforeAll, afterAll) fail the file at its end.
 */
import { afterAll, afterEach, expect } from 'vitest';
import { describeViolations, takeViolations } from './contract-violations.ts';

afterEach(() => {
  const name = expect.getState().currentTestName;
  const violations = takeViolations((v) => v.test === name);
  if (violations.length > 0) throw new Error(describeViolations(violations));
});

afterAll(() => {
  const violations = takeViolations();
  if (violations.length > 0) throw new Error(describeViolations(violations));
});
