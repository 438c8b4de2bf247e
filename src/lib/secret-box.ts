import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Authenticated encryption of small secrets at rest (AES-256-GCM), bound to where they are stored. */
export interface SecretBox {
  /** `context` (e.g. the owning row's ids) must be given again to open: a sealed value moved to another row does not open. */
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

/**
 * The AES key is derived from SECRET_KEY with HKDF rather than used directly, so SECRET_KEY may be
 * any length of 32+ bytes and other features can derive their own keys from it independently.
 */
export function createSecretBox(secretKey: Buffer, purpose: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), `capture-inbox ${purpose}`, 32));
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), data.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed, context) {
      const [version, iv, data, tag] = sealed.split('.');
      if (version !== VERSION || iv === undefined || data === undefined || tag === undefined) throw new Error('sealed value has an unknown format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
