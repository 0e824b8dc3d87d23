import { afterEach, describe, expect, it } from 'vitest';
import { platformAddress } from './addresses.ts';

const VARIABLE = 'LEDGERPORT_TEST_PLATFORM_URL';

describe('platformAddress', () => {
  afterEach(() => {
    Reflect.deleteProperty(process.env, VARIABLE);
  });

  it('falls back when the variable is unset or blank', () => {
    expect(platformAddress(VARIABLE, 'https://api.example.com/')).toBe('https://api.example.com');
    process.env[VARIABLE] = '  ';
    expect(platformAddress(VARIABLE, 'https://api.example.com')).toBe('https://api.example.com');
  });

  it('uses the variable, read at call time, without a trailing slash', () => {
    process.env[VARIABLE] = 'http://127.0.0.1:4010/api.xro/2.0/';
    expect(platformAddress(VARIABLE, 'https://api.example.com')).toBe('http://127.0.0.1:4010/api.xro/2.0');
  });

  it('names the variable when its value is not an http(s) URL', () => {
    process.env[VARIABLE] = 'ftp://example.com';
    expect(() => platformAddress(VARIABLE, 'https://api.example.com')).toThrow(`${VARIABLE} must be an http(s) URL`);
    process.env[VARIABLE] = 'not a url';
    expect(() => platformAddress(VARIABLE, 'https://api.example.com')).toThrow(VARIABLE);
  });
});
