import type { Plan } from '../db/schema.js';

/**
 * Who a request acts for, as the bearer key (or, in the web app, the session) resolved it. Below
 * the modules: keys makes it, and users, capture, live and the web read it, so no module imports
 * another for this one type (it made keys <-> users a cycle, issue 46).
 */
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
