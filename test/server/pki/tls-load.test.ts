import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  generateServingCertificates,
  loadCertificates,
  type ServingCertificates,
  TlsFileError,
} from '../../../src/server/pki/tls.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';

describe('loadCertificates', () => {
  let dir: string;
  let certs: ServingCertificates;
  let certFile: string;
  let keyFile: string;

  const tempDir = tempDirForFile('watchmark-load-');
  beforeAll(async () => {
    dir = tempDir();
    certs = await generateServingCertificates({ hosts: [] });
    certFile = join(dir, 'tls.crt');
    keyFile = join(dir, 'tls.key');
    await writeFile(certFile, certs.certPem);
    await writeFile(keyFile, certs.keyPem);
  });

  it('names the flag and path of a missing file', async () => {
    const missing = join(dir, 'nope.crt');
    const err = await loadCertificates(missing, keyFile).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlsFileError);
    expect((err as Error).message).toBe(`--tls-cert-file ${missing}: no such file`);
    await expect(loadCertificates(certFile, join(dir, 'nope.key'))).rejects.toThrow(
      `--tls-private-key-file ${join(dir, 'nope.key')}: no such file`,
    );
  });

  it('explains a directory, an unreadable file and a file without PEM', async () => {
    await expect(loadCertificates(dir, keyFile)).rejects.toThrow(`--tls-cert-file ${dir}: is a directory`);
    const junk = join(dir, 'junk.crt');
    await writeFile(junk, 'not a certificate\n');
    await expect(loadCertificates(junk, keyFile)).rejects.toThrow(
      `--tls-cert-file ${junk}: no PEM data found`,
    );
    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked.key');
      await writeFile(locked, certs.keyPem);
      await chmod(locked, 0o000);
      await expect(loadCertificates(certFile, locked)).rejects.toThrow(
        `--tls-private-key-file ${locked}: permission denied`,
      );
    }
  });

  it('catches swapped files and a key of another certificate', async () => {
    await expect(loadCertificates(keyFile, certFile)).rejects.toThrow(
      `--tls-cert-file ${keyFile}: does not contain a valid PEM certificate`,
    );
    const otherKey = join(dir, 'other.key');
    await writeFile(otherKey, (await generateServingCertificates({ hosts: [] })).keyPem);
    await expect(loadCertificates(certFile, otherKey)).rejects.toThrow(
      /private key does not match the certificate/,
    );
  });
});
