import { createSecretBox } from '../../lib/secret-box.js';

/**
 * Seals and opens a delivery target's secret (the `sealed_secret` column): a webhook's signing key
 * (the secret's SHA-256 hex, itself the HMAC key) or a channel's secrets as JSON. Each sealed value
 * is bound to its target, so a copied column value does not open elsewhere. The key's purpose and
 * the context keep their webhook names: values sealed before channels shared the table must still open.
 */
export interface TargetSecretVault {
  seal(userId: string, targetId: string, secret: string): string;
  open(userId: string, targetId: string, sealed: string): string;
}

const context = (userId: string, targetId: string) => `webhook:${userId}:${targetId}`;

export function createTargetSecretVault(secretKey: Buffer | undefined): TargetSecretVault {
  if (!secretKey) {
    // The admin CLI reads no key file, so without SECRET_KEY in its environment it has none; it never touches deliveries.
    const missing = (): never => {
      throw new Error('SECRET_KEY is not configured; delivery secrets cannot be sealed or opened');
    };
    return { seal: missing, open: missing };
  }
  const box = createSecretBox(secretKey, 'webhook signing keys');
  return {
    seal: (userId, targetId, secret) => box.seal(secret, context(userId, targetId)),
    open: (userId, targetId, sealed) => box.open(sealed, context(userId, targetId)),
  };
}
