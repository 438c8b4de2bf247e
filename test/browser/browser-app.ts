import type { AuthUser } from '../../src/schemas/auth-user.js';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startListeningApp, type ListeningApp } from '../clients/listening-app.js';
import type { DialectName } from '../../src/db/create-db.js';
import type { Plan } from '../../src/db/schema.js';
import { DIALECTS } from '../helpers/dialects.js';
import type { JsonBody, TestAppOptions } from '../helpers/test-app.js';
import { newEmail } from '../helpers/web-client.js';
import { DESKTOP, launchChromium, newContext } from './chromium.js';

/** The password of every account the browser tests sign up. */
export const PASSWORD = 'correct horse battery';

/** A signed-up user as the services see a web session's caller, for calling a service directly. */
export async function sessionUserOf(t: ListeningApp, userId: string): Promise<AuthUser> {
  const u = await t.services.users.me(userId);
  return { id: u.id, email: u.email, plan: u.plan, timezone: u.timezone, keyId: null };
}

export interface Viewport {
  width: number;
  height: number;
}

export interface SignedUp {
  page: Page;
  email: string;
  userId: string;
}

/** The app listening on 127.0.0.1 and a chromium that may only reach it, with the steps every browser test takes. */
export interface BrowserApp extends ListeningApp {
  browser: Browser;
  /** A page in a new browser profile (no cookies), at desktop width unless told. */
  freshPage(viewport?: Viewport): Promise<Page>;
  /** Signs up through the form and waits for the inbox. */
  signUp(page: Page, email: string): Promise<void>;
  /** Fills the sign-in form the page shows and submits it; the caller waits for where it leads. */
  signIn(page: Page, email: string): Promise<void>;
  /** A page in a new browser profile made as told (a touch phone, no script, another locale), signed in as `email`. */
  signedInPage(email: string, options?: BrowserContextOptions): Promise<Page>;
  /** A new account signed up in a fresh page, made Pro when asked. */
  signedUp(viewport?: Viewport, plan?: Plan): Promise<SignedUp>;
  /** /api/v1 over real HTTP, as a client beside the browser calls it. */
  api(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: JsonBody }>;
  /** Closes chromium, then the app and its database. */
  close(): Promise<void>;
}

export interface BrowserAppOptions {
  /** The first dialect of the run when absent: one is enough for pages. */
  dialect?: DialectName;
  app?: TestAppOptions;
  /** Extra chromium switches (a fake microphone, say). */
  chromiumArgs?: readonly string[];
}

async function startBrowserApp(options: BrowserAppOptions = {}): Promise<BrowserApp> {
  const t = await startListeningApp(options.dialect ?? DIALECTS[0] ?? 'sqlite', options.app);
  let browser: Browser;
  try {
    browser = await launchChromium(options.chromiumArgs);
  } catch (error) {
    await t.close();
    throw error;
  }

  async function freshPage(viewport: Viewport = DESKTOP): Promise<Page> {
    const page = await (await newContext(browser, t.baseUrl)).newPage();
    await page.setViewportSize(viewport);
    return page;
  }

  async function signUp(page: Page, email: string): Promise<void> {
    await page.goto('/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${t.baseUrl}/`);
  }

  async function signIn(page: Page, email: string): Promise<void> {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function signedInPage(email: string, options: BrowserContextOptions = {}): Promise<Page> {
    const page = await (await newContext(browser, t.baseUrl, options)).newPage();
    await page.goto('/login');
    await signIn(page, email);
    await page.waitForURL((url) => url.pathname !== '/login');
    return page;
  }

  async function signedUp(viewport: Viewport = DESKTOP, plan: Plan = 'free'): Promise<SignedUp> {
    const page = await freshPage(viewport);
    const email = newEmail();
    await signUp(page, email);
    const user = await t.services.users.requireByEmail(email);
    // Set either way: the first account of a server is its owner, who signs up as Pro.
    if (user.plan !== plan) await t.services.users.setPlanById(user.id, plan);
    return { page, email, userId: user.id };
  }

  async function api(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: JsonBody }> {
    const res = await fetch(`${t.baseUrl}/api/v1/${path}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as JsonBody };
  }

  return {
    ...t,
    browser,
    freshPage,
    signUp,
    signIn,
    signedInPage,
    signedUp,
    api,
    async close() {
      // Closing the browser closes every context the tests opened.
      await browser.close();
      await t.close();
    },
  };
}

/** The day most browser files live in: Thursday 26 November 2026, 11:00 in Berlin. */
export const THURSDAY = new Date('2026-11-26T10:00:00.000Z');

export interface BrowserFileOptions extends BrowserAppOptions {
  /** Where the app's clock stands for the whole file. */
  at?: Date;
  /**
   * An account made first with this email (and PASSWORD): it owns the server, so the accounts the
   * tests sign up are ordinary users.
   */
  owner?: string;
  /** What else the file needs once the app is up, before its first test. */
  setup?: (t: BrowserApp) => Promise<void>;
}

/**
 * The one app and chromium of a browser test file, started before its tests and closed after them.
 * The handle is the app itself once started; using it before (at the file's top level) throws.
 * Options may be a function, for values an earlier beforeAll makes (a receiver's certificates).
 */
export function useBrowserApp(options: BrowserFileOptions | (() => BrowserFileOptions) = {}): BrowserApp {
  let app: BrowserApp | undefined;
  beforeAll(async () => {
    const chosen = typeof options === 'function' ? options() : options;
    app = await startBrowserApp(chosen);
    if (chosen.at) app.clock.set(chosen.at);
    if (chosen.owner) await app.services.users.create({ email: chosen.owner, password: PASSWORD });
    await chosen.setup?.(app);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });
  return new Proxy({} as BrowserApp, {
    get(_, key) {
      if (!app) throw new Error('the browser app is used before it started (in a test or a hook, not at the top of the file)');
      return Reflect.get(app, key) as unknown;
    },
  });
}
