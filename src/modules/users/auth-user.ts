import type { Plan } from '../../db/schema.js';

/** Who a request acts for, as the bearer key (or, in the web app, the session) resolved it. */
export interface AuthUser {
  id: string;
  email: string;
  plan: Plan;
  timezone: string;
  /** The API key of the request; null for a signed-in web session. */
  keyId: string | null;
  /** When that key expires (absent or null: never, or a web session); open streams end then. */
  keyExpiresAt?: string | null;
}
