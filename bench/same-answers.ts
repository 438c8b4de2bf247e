/*
 * A check that the two sides really hold the same data: before any write, the first page of
 * GET /items and of each search must list the same ids, in the same order, on both servers.
 */

export interface SameAnswers {
  checked: number;
  same: number;
  /** The paths whose first pages differ. */
  different: string[];
}

const TIMEOUT_MS = 10_000;

async function firstPageIds(url: string, token: string, path: string): Promise<string[]> {
  const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  const body = (await res.json()) as { items?: Array<{ id?: unknown }> };
  if (res.status !== 200 || !Array.isArray(body.items)) throw new Error(`GET ${path} answered ${res.status}`);
  return body.items.map((item) => String(item.id));
}

export async function compareAnswers(
  service: { url: string; token: string },
  baseline: { url: string; token: string },
  searchTerms: readonly string[],
): Promise<SameAnswers> {
  const paths = ['/api/v1/items?limit=50', ...searchTerms.map((t) => `/api/v1/items/search?q=${encodeURIComponent(t)}&limit=50`)];
  const result: SameAnswers = { checked: paths.length, same: 0, different: [] };
  for (const path of paths) {
    const [a, b] = await Promise.all([firstPageIds(service.url, service.token, path), firstPageIds(baseline.url, baseline.token, path)]);
    if (a.length > 0 && a.join() === b.join()) result.same += 1;
    else result.different.push(`${path} (service ${a.length} items, baseline ${b.length})`);
  }
  return result;
}
