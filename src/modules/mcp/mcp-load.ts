/** The bounds of MCP requests in flight in one process (MCP_MAX_IN_FLIGHT, MCP_MAX_IN_FLIGHT_PER_USER). */
export interface McpLoadLimits {
  readonly maxInFlight: number;
  readonly maxInFlightPerUser: number;
}

/**
 * Counts the MCP requests being answered. The hosted endpoint keeps no session between requests,
 * so what a client can hold on the server is its requests in flight: bounded overall and per user,
 * and released when the answer is done, whether or not the client is still there to read it.
 */
export class McpLoad {
  private total = 0;
  private readonly perUser = new Map<string, number>();

  constructor(private readonly limits: McpLoadLimits) {}

  get inFlight(): number {
    return this.total;
  }

  /** A release function, or null when the process or this user is at the bound. Release is idempotent. */
  tryStart(userId: string): (() => void) | null {
    const mine = this.perUser.get(userId) ?? 0;
    if (this.total >= this.limits.maxInFlight || mine >= this.limits.maxInFlightPerUser) return null;
    this.total += 1;
    this.perUser.set(userId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left === 0) this.perUser.delete(userId);
      else this.perUser.set(userId, left);
    };
  }
}
