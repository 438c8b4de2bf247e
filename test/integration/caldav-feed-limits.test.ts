import { afterEach, describe, expect, it } from 'vitest';
import type { LimitsConfig } from '../../src/config.js';
import { DIALECTS } from '../helpers/dialects.js';
import { STORES, removeRedisKeys, testRedis, type TestRedis } from '../helpers/redis.js';
import { UNLIMITED, client, createTestApp, createUser, type TestApp } from '../helpers/test-app.js';

/*
 * Rate limits of the calendar apps' doors (contract "Calendar apps", decisions/0095): CalDAV counts
 * against the user's API limits, and the public feed URL is limited per client IP and per URL,
 * counted before the secret is looked up, so a guesser learns nothing from a 429.
 */

const basic = (token: string) => `Basic ${Buffer.from(`anyone:${token}`).toString('base64')}`;
const PROPFIND = '<d:propfind xmlns:d="DAV:"><d:prop><d:displayname/></d:prop></d:propfind>';
/** A secret of the right shape (a feed id and 43 random characters) that is no feed's. */
const WRONG = `01900000-0000-7000-8000-000000000000${'A'.repeat(43)}`;

describe.each(DIALECTS.flatMap((dialect) => STORES.map((store) => [dialect, store] as const)))('caldav and feed limits (%s, %s store)', (dialect, store) => {
  const opened: TestApp[] = [];
  const redisTargets: TestRedis[] = [];

  afterEach(async () => {
    for (const t of opened.splice(0)) await t.close();
    for (const target of redisTargets.splice(0)) await removeRedisKeys(target);
  });

  async function setup(limits: LimitsConfig): Promise<TestApp> {
    const redis = store === 'redis' ? testRedis() : undefined;
    if (redis) redisTargets.push(redis);
    const t = await createTestApp(dialect, { limits, ...(redis ? { redis } : {}) });
    opened.push(t);
    return t;
  }

  it('counts CalDAV requests with the API requests of the same user, and answers 429 with Retry-After', async () => {
    const t = await setup({ ...UNLIMITED, free: { perMinute: 4, perDay: 100 } });
    const user = await createUser(t);
    const other = await createUser(t);
    const api = client(t.app, user.token);
    const davAs = (token: string) =>
      t.app.inject({
        method: 'PROPFIND' as 'GET',
        url: '/dav/',
        headers: { authorization: basic(token), depth: '0', 'content-type': 'application/xml' },
        payload: PROPFIND,
      });
    // A refused key is not counted against anyone.
    expect((await davAs('cin_abcdefgh_wrongwrongwrongwrongwrongwrongwrong')).statusCode).toBe(401);
    expect((await api.get('me')).status).toBe(200);
    expect((await api.get('me')).status).toBe(200);
    const third = await davAs(user.token);
    expect(third.statusCode).toBe(207);
    expect(third.headers['x-ratelimit-remaining']).toBe('1');
    expect((await davAs(user.token)).statusCode).toBe(207);
    const limited = await davAs(user.token);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.headers['content-type']).toMatch(/^text\/plain/);
    expect(limited.body).toMatch(/per-minute request limit/);
    // The API is limited too now: one budget for both doors.
    expect((await api.get('me')).status).toBe(429);
    // Another user is untouched.
    expect((await davAs(other.token)).statusCode).toBe(207);
    t.clock.advance(60_000);
    expect((await davAs(user.token)).statusCode).toBe(207);
  });

  it('limits a feed URL per URL and per client IP, before the secret is looked up', async () => {
    const t = await setup({ ...UNLIMITED, feeds: { perSecretPerMinute: 3, perIpPerMinute: 5 } });
    const c = client(t.app, (await createUser(t)).token);
    const feed = (await c.post('feeds', { all: true })).body.feed as { url: string };
    const path = new URL(feed.url).pathname;
    const fetchFrom = (url: string, ip: string) => t.app.inject({ method: 'GET', url, remoteAddress: ip });

    for (let i = 0; i < 3; i += 1) expect((await fetchFrom(path, '192.0.2.1')).statusCode).toBe(200);
    const perUrl = await fetchFrom(path, '192.0.2.1');
    expect(perUrl.statusCode).toBe(429);
    expect(perUrl.headers['retry-after']).toBe('60');
    expect(perUrl.body).not.toContain('BEGIN:VCALENDAR');
    // The URL's budget holds from any address: a leaked URL cannot be hammered from many.
    expect((await fetchFrom(path, '192.0.2.2')).statusCode).toBe(429);
    // The address still has room for another URL (its 5th request): a wrong one is 404 as ever.
    expect((await fetchFrom(`/feeds/${WRONG}.ics`, '192.0.2.1')).statusCode).toBe(404);

    t.clock.advance(60_000);
    expect((await fetchFrom(path, '192.0.2.1')).statusCode).toBe(200);
  });

  it('limits guessing: wrong secrets from one address are 404 until its budget is spent, then 429 exactly as a right one', async () => {
    const t = await setup({ ...UNLIMITED, feeds: { perSecretPerMinute: 100, perIpPerMinute: 4 } });
    const c = client(t.app, (await createUser(t)).token);
    const feed = (await c.post('feeds', { all: true })).body.feed as { url: string };
    const right = new URL(feed.url).pathname;
    const guess = (n: number) => `/feeds/${WRONG.slice(0, -3)}${String(n).padStart(3, '0')}.ics`;
    const from = (url: string, ip: string) => t.app.inject({ method: 'GET', url, remoteAddress: ip });

    for (let n = 0; n < 4; n += 1) {
      const miss = await from(guess(n), '198.51.100.7');
      expect(miss.statusCode).toBe(404);
      expect(JSON.parse(miss.body)).toEqual({ error: 'not_found', message: 'feed not found' });
    }
    const wrongLimited = await from(guess(4), '198.51.100.7');
    const rightLimited = await from(right, '198.51.100.7');
    const malformedLimited = await from('/feeds/nothing-like-a-secret.ics', '198.51.100.7');
    for (const limited of [wrongLimited, rightLimited, malformedLimited]) {
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe('60');
      expect(limited.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(limited.headers.etag).toBeUndefined();
    }
    // Nothing tells a right secret from a wrong one once limited: the same answer, byte for byte.
    expect(rightLimited.body).toBe(wrongLimited.body);
    expect(malformedLimited.body).toBe(wrongLimited.body);
    // Other addresses are not slowed by one guesser.
    expect((await from(right, '198.51.100.8')).statusCode).toBe(200);
  });
});
