import { describe, expect, it } from 'vitest';
import { quickDates } from '../../../src/web/client/regions/quick-dates.js';
import { SWIPE_DISTANCE, swipeAction } from '../../../src/web/client/swipe-action.js';

describe('the phone: quick dates of the row menu and what a swipe does (issue 47 item 9)', () => {
  it('offers today, tomorrow and Monday of next week, across months and years', () => {
    // Thursday 26 November 2026.
    expect(quickDates('2026-11-26')).toEqual([
      ['Today', '2026-11-26'],
      ['Tomorrow', '2026-11-27'],
      ['Next week', '2026-11-30'],
    ]);
    // A Monday's next week is seven days on; a Sunday's is tomorrow (weeks start on Monday, as "next week" reads).
    expect(quickDates('2026-11-30')[2]).toEqual(['Next week', '2026-12-07']);
    expect(quickDates('2026-11-29')[2]).toEqual(['Next week', '2026-11-30']);
    expect(quickDates('2026-12-31').slice(1)).toEqual([
      ['Tomorrow', '2027-01-01'],
      ['Next week', '2027-01-04'],
    ]);
    // 29 March 2026 is the day Europe's clocks change: a calendar date does not care.
    expect(quickDates('2026-03-28')[1]).toEqual(['Tomorrow', '2026-03-29']);
  });

  it('completes to the right, reschedules to the left, and springs back short of the distance', () => {
    expect(swipeAction(SWIPE_DISTANCE)).toBe('done');
    expect(swipeAction(-SWIPE_DISTANCE)).toBe('later');
    expect(swipeAction(SWIPE_DISTANCE - 1)).toBeNull();
    expect(swipeAction(-(SWIPE_DISTANCE - 1))).toBeNull();
    expect(swipeAction(0)).toBeNull();
  });
});
