import { describe, expect, it } from 'vitest';
import {
  generateToken,
  parseTokenFile,
  TokenFileError,
  tlsClientAuthOptions,
} from '../../../src/server/http/auth.js';

describe('parseTokenFile', () => {
  it('reads token,user,uid[,"groups"] records, skipping blanks and comments', () => {
    const text = [
      '# static tokens',
      'tok-admin,admin,uid-1,"system:masters,dev"',
      '',
      '  # indented comment',
      'tok-bob, bob ,,ops\r',
      'tok-carol,carol,uid-3',
      'tok-dave,"dave ""the admin""",uid-4," a , ,b "',
    ].join('\n');
    const users = parseTokenFile(text, 'tokens.csv');
    expect([...users.keys()]).toEqual(['tok-admin', 'tok-bob', 'tok-carol', 'tok-dave']);
    expect(users.get('tok-admin')).toEqual({
      name: 'admin',
      uid: 'uid-1',
      groups: ['system:masters', 'dev'],
    });
    expect(users.get('tok-bob')).toEqual({ name: 'bob', groups: ['ops'] });
    expect(users.get('tok-carol')).toEqual({ name: 'carol', uid: 'uid-3', groups: [] });
    expect(users.get('tok-dave')).toEqual({ name: 'dave "the admin"', uid: 'uid-4', groups: ['a', 'b'] });
  });

  it('accepts an empty file', () => {
    expect(parseTokenFile('\n# nothing\n', 'empty.csv').size).toBe(0);
  });

  const secret = 's3cr3t-t0ken-value';
  it.each([
    [
      `ok,a,1\n${secret},bob\n`,
      'token file t.csv, line 2: expected at least 3 columns (token,user,uid[,groups]), found 2',
    ],
    [
      `${secret}\n`,
      'token file t.csv, line 1: expected at least 3 columns (token,user,uid[,groups]), found 1',
    ],
    [',bob,1\n', 'token file t.csv, line 1: empty token'],
    [`${secret}, ,1\n`, 'token file t.csv, line 1: empty user name'],
    [
      `${secret},a,1\n# c\n${secret},b,2\n`,
      'token file t.csv, line 3: duplicate token (first defined on line 1)',
    ],
    [`${secret},a,1,"dev,ops\n`, 'token file t.csv, line 1: unterminated quoted field in column 4'],
    [`${secret},a"b,1\n`, 'token file t.csv, line 1: bare " in unquoted column 2'],
  ])('rejects a bad line with its number and without the token: %j', (text, message) => {
    const err = (() => {
      try {
        parseTokenFile(text, 't.csv');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(TokenFileError);
    expect((err as Error).message).toBe(message);
    expect((err as Error).message).not.toContain(secret);
    expect(String((err as Error).stack)).not.toContain(secret);
  });
});

describe('generateToken', () => {
  it('makes distinct URL-safe tokens with at least 32 bytes of entropy', () => {
    const tokens = new Set(Array.from({ length: 50 }, generateToken));
    expect(tokens.size).toBe(50);
    for (const t of tokens) {
      expect(t).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(t, 'base64url').length).toBeGreaterThanOrEqual(32);
    }
  });
});

describe('tlsClientAuthOptions', () => {
  it('requests but does not require client certificates when a CA is given', () => {
    expect(tlsClientAuthOptions('PEM')).toEqual({ requestCert: true, rejectUnauthorized: false, ca: 'PEM' });
    expect(tlsClientAuthOptions()).toEqual({ requestCert: false });
  });
});
