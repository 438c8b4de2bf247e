import { describe, expect, it } from 'vitest';
import { recurrenceInWords, recurrenceOf, repeatValuesOf } from '../../src/web/recurrence-choice.js';
import { checkRecurrence } from '../../src/modules/recurrence/recurrence.service.js';

describe('the item page repeat choice', () => {
  it.each([
    ['daily', '', 'FREQ=DAILY', 'Every day'],
    ['weekdays', '', 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', 'Every weekday'],
    ['weekly', '', 'FREQ=WEEKLY', 'Every week'],
    ['monthly', '', 'FREQ=MONTHLY', 'Every month'],
    ['every_n_days', '3', 'FREQ=DAILY;INTERVAL=3', 'Every 3 days'],
  ] as const)('%s (%s) is the rule %s, which the contract subset takes and reads "%s"', (repeat, n, rule, words) => {
    const made = recurrenceOf({ repeat, every_days: n, repeat_from: 'due' }, null);
    expect(made).toEqual({ recurrence: { rule, from: 'due' } });
    expect(checkRecurrence({ rule, from: 'due' }).rule).toBe(rule);
    expect(recurrenceInWords({ rule, from: 'due' })).toBe(words);
    expect(repeatValuesOf({ rule, from: 'due' })).toEqual({ repeat, every_days: n, repeat_from: 'due' });
  });

  it('keeps a rule set elsewhere as "custom", with its counting changed if asked', () => {
    const custom = { rule: 'FREQ=MONTHLY;BYMONTHDAY=-1', from: 'due' as const };
    expect(repeatValuesOf(custom).repeat).toBe('custom');
    expect(recurrenceOf({ repeat: 'custom', every_days: '', repeat_from: 'completion' }, custom)).toEqual({ recurrence: { ...custom, from: 'completion' } });
    expect(recurrenceInWords({ rule: 'FREQ=DAILY;INTERVAL=2', from: 'completion' })).toBe('Every 2 days, counted from completion');
  });

  it.each(['0', '366', '', 'x', '1.5'])('refuses every "%s" days', (n) => {
    expect(recurrenceOf({ repeat: 'every_n_days', every_days: n, repeat_from: 'due' }, null)).toHaveProperty('error');
  });

  it('every 1 day is every day, and none clears', () => {
    expect(recurrenceOf({ repeat: 'every_n_days', every_days: '1', repeat_from: 'due' }, null)).toEqual({ recurrence: { rule: 'FREQ=DAILY', from: 'due' } });
    expect(recurrenceOf({ repeat: 'none', every_days: '', repeat_from: 'due' }, { rule: 'FREQ=DAILY', from: 'due' })).toEqual({ recurrence: null });
  });
});
