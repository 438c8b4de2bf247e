import type { Plan } from '../../db/schema.js';

/** Who a request acts for, as the bearer key resolved it. */
export interface AuthUser {
  id: string;
  email: string;
  plan: Plan;
  timezone: string;
  keyId: string;
}
