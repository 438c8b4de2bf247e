export interface Scenario {
  name: ScenarioName;
  method: 'GET' | 'POST';
  /** The next request's path and body; each call moves on to another item, word or body. */
  next(): { path: string; body?: string };
  /** Distinct targets before next() starts over (a write then finds its change already made). */
  distinct?: number;
  /** After this many calls next() repeats itself; none when every request differs. */
  period?: number;
}

export type ScenarioName = 'capture' | 'toggle' | 'get' | 'list_50' | 'search_one_word' | FilterScenarioName;
/** The filter bench's (bench/filter-scenarios.ts, run by bench/filters-bench.ts against list_50). */
export type FilterScenarioName = 'filter_today_overdue' | 'filter_project_tag' | 'filter_search_7_days' | 'filter_saved';

/** The order of the report (the table). */
export const REPORT_ORDER: readonly ScenarioName[] = ['capture', 'toggle', 'get', 'list_50', 'search_one_word'];

/**
 * The order of a round. Capture runs last: the items it adds become the newest, and list and
 * search (newest first) would otherwise read pages of those instead of the seeded items.
 */
export const RUN_ORDER: readonly ScenarioName[] = ['list_50', 'get', 'toggle', 'search_one_word', 'capture'];

export interface ScenarioData {
  /** Seeded item ids, oldest first (the same ids on both sides). */
  ids: readonly string[];
  /** POST /capture bodies. */
  captureBodies: readonly string[];
  /** One word prefix per search. */
  searchTerms: readonly string[];
}

const API = '/api/v1';

function cycle<T>(list: readonly T[]): () => T {
  if (list.length === 0) throw new Error('nothing to cycle through');
  let i = 0;
  return () => list[i++ % list.length]!;
}

/**
 * The scenarios for one side; both sides get the same request sequence. get reads the newest fifth
 * of the seeded items and toggle flips the next fifth, so one does not read what the other changed.
 */
export function buildScenarios(data: ScenarioData): Map<ScenarioName, Scenario> {
  const newestFirst = [...data.ids].reverse();
  const fifth = Math.max(1, Math.floor(newestFirst.length / 5));
  const getIds = newestFirst.slice(0, fifth);
  const toggleIds = newestFirst.slice(fifth, 2 * fifth);
  const getId = cycle(getIds);
  const toggleId = cycle(toggleIds.length > 0 ? toggleIds : getIds);
  const body = cycle(data.captureBodies);
  const term = cycle(data.searchTerms);
  const list: Scenario[] = [
    { name: 'capture', method: 'POST', period: data.captureBodies.length, next: () => ({ path: `${API}/capture`, body: body() }) },
    { name: 'toggle', method: 'POST', distinct: toggleIds.length, period: toggleIds.length, next: () => ({ path: `${API}/items/${toggleId()}/toggle` }) },
    { name: 'get', method: 'GET', period: getIds.length, next: () => ({ path: `${API}/items/${getId()}` }) },
    { name: 'list_50', method: 'GET', period: 1, next: () => ({ path: `${API}/items?limit=50` }) },
    {
      name: 'search_one_word',
      method: 'GET',
      period: data.searchTerms.length,
      next: () => ({ path: `${API}/items/search?q=${encodeURIComponent(term())}` }),
    },
  ];
  return new Map(list.map((s) => [s.name, s]));
}
