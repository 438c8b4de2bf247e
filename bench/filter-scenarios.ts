import type { FilterScenarioName, Scenario, ScenarioName } from './scenarios.js';

/*
 * The filter bench's requests (issue 48): the four filters, and the list scenario they are
 * measured against (the same GET /items?limit=50 as the main bench's list_50), on one account.
 * Each answers its first page of 50, as a client opening the view does.
 */

/** A filter bench run: list_50 or one of the filters. */
export type FilterRunName = Extract<ScenarioName, 'list_50'> | FilterScenarioName;

/** The list scenario first: every ratio is a filter's throughput over its round's list throughput. */
export const FILTER_RUN_ORDER: readonly FilterRunName[] = ['list_50', 'filter_today_overdue', 'filter_project_tag', 'filter_search_7_days', 'filter_saved'];

/** The query each scenario sends (the saved filter's is seeded: filter-seed.ts). */
const FILTER_QUERIES: Record<Exclude<FilterScenarioName, 'filter_saved'>, (word: string) => string> = {
  filter_today_overdue: () => 'today | overdue',
  filter_project_tag: () => '#Work & @calls',
  filter_search_7_days: (word) => `search: ${word} & next 7 days`,
};

const API = '/api/v1';

/** Inputs the contract says must be answered (400 or items) fast: the bad-input figure, not a load scenario. */
export const BAD_INPUTS: Record<string, string> = {
  terms_1000: Array.from({ length: 1000 }, (_, i) => `@t${i}`).join(' | '),
  nested_not_1000: `${'!'.repeat(999)}today`,
  parens_500: `${'('.repeat(500)}today${')'.repeat(500)}`,
  unbalanced: '((today | overdue) & #Work',
  long_project_name: `#${'x'.repeat(1000)}`,
  hash_alone: '#',
  like_metacharacters: `search: 50%_off\\ & @o'clock*`,
};

export function buildFilterScenarios(searchWords: readonly string[], savedFilterId: string): Map<FilterRunName, Scenario> {
  let w = 0;
  const word = () => searchWords[w++ % searchWords.length]!;
  const filter = (query: string) => `${API}/items?filter=${encodeURIComponent(query)}`;
  const scenario = (name: FilterRunName, period: number, next: () => string): Scenario => ({ name, method: 'GET', period, next: () => ({ path: next() }) });
  const list: Scenario[] = [
    scenario('list_50', 1, () => `${API}/items?limit=50`),
    scenario('filter_today_overdue', 1, () => filter(FILTER_QUERIES.filter_today_overdue(''))),
    scenario('filter_project_tag', 1, () => filter(FILTER_QUERIES.filter_project_tag(''))),
    scenario('filter_search_7_days', searchWords.length, () => filter(FILTER_QUERIES.filter_search_7_days(word()))),
    scenario('filter_saved', 1, () => `${API}/filters/${savedFilterId}/items`),
  ];
  return new Map(list.map((s) => [s.name as FilterRunName, s]));
}
