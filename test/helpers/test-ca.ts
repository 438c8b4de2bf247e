// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto);

export interface TestCertificates {
  /** The CA to trust (PEM). */
  caPem: string;
  /** The receiver's certificate, issued by the CA, and its private key (PEM). */
  certPem: string;
  keyPem: string;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 3600_000;

/**
 * A throwaway CA and a server certificate it issued, made in memory for one test run. The server
 * certificate covers 127.0.0.1, ::1 and the given names (which tests map to 127.0.0.1 with an
 * injected resolver), so TLS verification runs for real and nothing is trusted blindly.
 */
export async function createTestCertificates(dnsNames: string[] = ['hooks.example.test']): Promise<TestCertificates> {
  const caKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=Capture Inbox Test CA',
    keys: caKeys,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + DAY_MS),
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const leafKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const leaf = await x509.X509CertificateGenerator.create({
    subject: 'CN=webhook receiver',
    issuer: ca.subject,
    publicKey: leafKeys.publicKey,
    signingKey: caKeys.privateKey,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + DAY_MS),
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
        ...dnsNames.map((value) => ({ type: 'dns' as const, value })),
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', leafKeys.privateKey);
  return {
    caPem: ca.toString('pem'),
    certPem: leaf.toString('pem'),
    keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY'),
  };
}
