import type { ToolCache } from '@capture-inbox/mcp';

/** Keys whose cache is kept at most; the least recently used is dropped past it. */
const MAX_KEYS = 1000;

/**
 * The tools' caches (the user with the key's scopes, project names) per API key, so that a summary does not cost an
 * extra counted API request on every call although each MCP request gets a fresh server. Bounded
 * in entries; each entry expires on its own (the tools re-read what is older than 30 s).
 */
export class KeyCaches {
  private readonly caches = new Map<string, ToolCache>();

  for(keyId: string): ToolCache {
    const found = this.caches.get(keyId);
    if (found) {
      // Re-inserted so that the Map's order is least recently used first.
      this.caches.delete(keyId);
      this.caches.set(keyId, found);
      return found;
    }
    const fresh: ToolCache = {};
    this.caches.set(keyId, fresh);
    if (this.caches.size > MAX_KEYS) this.caches.delete(this.caches.keys().next().value!);
    return fresh;
  }
}
