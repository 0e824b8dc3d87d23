import { describe, expect, it } from 'vitest';
import { explainStartFailure, FixableError, formatStartFailure } from './start-failure.ts';

const settings = { dataDir: '/srv/ledgerport', databaseUrl: 'postgres://app:secret@db.internal:6543/ledgerport' };

/** An error as Node or pg make them: a message and fields. */
function systemError(message: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(message), fields);
}

describe('explainStartFailure', () => {
  it('keeps the fix of a FixableError', () => {
    expect(explainStartFailure(new FixableError('port taken', 'free it.'), settings)).toEqual({ problem: 'port taken', fix: 'free it.' });
  });

  it('a port below 1024 without the right to it: says to choose another PORT', () => {
    const failure = explainStartFailure(systemError('listen EACCES', { code: 'EACCES', syscall: 'listen', address: '0.0.0.0', port: 80 }), settings);
    expect(failure.problem).toContain('0.0.0.0:80');
    expect(failure.fix).toContain('set PORT to 1024 or above');
  });

  it("PostgreSQL's refusals, by SQLSTATE: sign-in, rights, connections; never the password", () => {
    const signIn = explainStartFailure(systemError('password authentication failed for user "app"', { code: '28P01' }), settings);
    expect(signIn.problem).toContain('db.internal:6543/ledgerport (DATABASE_URL)');
    expect(signIn.fix).toContain('user and password in DATABASE_URL');
    expect(JSON.stringify(signIn)).not.toContain('secret');
    expect(explainStartFailure(systemError('permission denied for schema public', { code: '42501' }), settings).fix).toContain('OWNER TO');
    expect(explainStartFailure(systemError('sorry, too many clients already', { code: '53300' }), settings).fix).toContain('max_connections');
  });

  it('a file outside DATA_DIR that cannot be written: names its directory, not DATA_DIR', () => {
    const failure = explainStartFailure(
      systemError("EACCES: permission denied, mkdir '/var/lib/ledgerport/ab'", { code: 'EACCES', path: '/var/lib/ledgerport/ab' }),
      settings,
    );
    expect(failure.problem).not.toContain('DATA_DIR');
    expect(failure.fix).toContain('make /var/lib/ledgerport a directory this user');
  });

  it('a DATA_DIR where no directory can be made (mkdir ENOENT with its parents there, as under /proc): names DATA_DIR', () => {
    const failure = explainStartFailure(
      systemError("ENOENT: no such file or directory, mkdir '/srv/ledgerport'", { code: 'ENOENT', syscall: 'mkdir', path: '/srv/ledgerport' }),
      settings,
    );
    expect(failure.problem).toContain('DATA_DIR=/srv/ledgerport cannot be used');
    expect(failure.fix).toContain('or set DATA_DIR to one');
    expect(failure.stack).toBeUndefined();
  });

  it('a full disk under DATA_DIR: says to free space', () => {
    const failure = explainStartFailure(
      systemError('ENOSPC: no space left on device', { code: 'ENOSPC', path: '/srv/ledgerport/encryption.key' }),
      settings,
    );
    expect(failure.problem).toContain('DATA_DIR=/srv/ledgerport');
    expect(failure.fix).toContain('free space');
  });

  it('an error it does not know: its message, what to do, and the stack to report', () => {
    const failure = explainStartFailure(new Error('something new'), settings);
    expect(failure.problem).toBe('something new');
    expect(formatStartFailure(failure)).toMatch(
      /^ledgerport failed to start: something new\nWhat to do: .*report it.*\nError: something new\n\s+at /,
    );
    expect(explainStartFailure(undefined, null).problem).toBe('something threw undefined instead of an error');
  });
});
