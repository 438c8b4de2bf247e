/**
 * Words for benchmark items, most frequent first. Drawn with a Zipf distribution (a word's share
 * falls with its rank), like natural text: the first words appear in most items, the ones past
 * rank 100 in a few percent, the tail in well under one percent. Accented words are mixed in so
 * the non-ASCII path is exercised too.
 */
export const WORDS: readonly string[] = [
  ...new Set(
    `
the to and a of for on in with at is call buy meeting email review send check fix plan notes
draft team project report update client book order pay read write follow ask new next today
week month budget invoice receipt milk bread coffee ticket flight hotel dentist appointment
birthday gift deadline contract design launch release bug feature sprint backlog roadmap
summary agenda recipe workout running bike repair insurance mortgage rent tax refund passport
visa vacation packing laundry cleaning plumber electrician garage paint shelf lamp desk chair
monitor keyboard laptop charger battery cable router printer server database backup password
account login quote estimate payment transfer salary bonus interview resume portfolio website
blog article podcast newsletter video camera photo album concert festival museum theater dinner
lunch breakfast pizza pasta salad soup chicken fish rice beans cheese butter eggs apples bananas
oranges berries yogurt cereal tea juice wine beer water doctor pharmacy prescription vitamins
school teacher homework parents kids soccer piano lesson garden plants seeds fertilizer lawn
mower fence gutter roof window door lock keys car oil tires inspection registration license
parking fuel train bus taxi airport luggage hostel museum map guide translation language
spanish german french café über crème naïve façade jalapeño résumé smörgåsbord piñata
invoice quarterly annual review metrics dashboard analytics funnel conversion revenue churn
retention onboarding offboarding hiring recruiter candidate offer negotiation equity vesting
legal compliance privacy security audit incident postmortem outage latency throughput cache
queue worker cron deploy rollback migration schema index query vacuum replica failover
kubernetes docker terraform ansible nginx postgres sqlite redis kafka grafana prometheus
alert pager oncall rotation handover standup retro demo planning estimation story epic
ticket triage priority severity customer support feedback survey interview persona journey
wireframe mockup prototype usability accessibility contrast typography palette logo brand
campaign social twitter linkedin press release webinar conference talk slides workshop
`
      .trim()
      .split(/\s+/),
  ),
];

/** Deterministic pseudo-random numbers in [0, 1), so every run seeds the same data. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws words with probability proportional to 1 / rank. */
export function zipfSampler(random: () => number, words: readonly string[] = WORDS): () => string {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= words.length; rank += 1) cumulative.push((total += 1 / rank));
  return () => {
    const target = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
}

/** A phrase of `count` words, the first capitalised like a typed title. */
export function phrase(next: () => string, count: number): string {
  const words = Array.from({ length: count }, next);
  const first = words[0] ?? '';
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return words.join(' ');
}
