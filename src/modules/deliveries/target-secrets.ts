import { createSecretBox } from '../../lib/secret-box.js';

/**
 * Seals and opens webhook signing keys (the secret's SHA-256 hex, which is itself the HMAC key).
 * Each sealed key is bound to its webhook, so a copied column value does not open elsewhere.
 */
export interface SigningKeyVault {
  seal(userId: string, webhookId: string, signingKey: string): string;
  open(userId: string, webhookId: string, sealed: string): string;
}

const context = (userId: string, webhookId: string) => `webhook:${userId}:${webhookId}`;

export function createSigningKeyVault(secretKey: Buffer | undefined): SigningKeyVault {
  if (!secretKey) {
    // The admin CLI reads no key file, so without SECRET_KEY in its environment it has none; it never touches webhooks.
    const missing = (): never => {
      throw new Error('SECRET_KEY is not configured; webhook signing keys cannot be sealed or opened');
    };
    return { seal: missing, open: missing };
  }
  const box = createSecretBox(secretKey, 'webhook signing keys');
  return {
    seal: (userId, webhookId, signingKey) => box.seal(signingKey, context(userId, webhookId)),
    open: (userId, webhookId, sealed) => box.open(sealed, context(userId, webhookId)),
  };
}
