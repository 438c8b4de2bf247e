import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { CHROMIUM, findProgram } from '../helpers/system-programs.js';

/** Committed, so a reviewer sees every page without running anything (docs/web.md links them). */
const SCREENSHOTS = join(process.cwd(), 'docs', 'screenshots');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
/** A phone as the page sees one: its width, a touch screen (pointer: coarse) and a mobile viewport. */
export const TOUCH_PHONE: BrowserContextOptions = { viewport: PHONE, hasTouch: true, isMobile: true };
/** A browser with JavaScript off: the pages must work as plain forms. */
export const NO_SCRIPT: BrowserContextOptions = { javaScriptEnabled: false };

/**
 * Debian's chromium, headless and quiet: no background traffic, no sync, no component updates,
 * no proxy, and every host name but 127.0.0.1 unresolvable, so a page can reach nothing else.
 * Playwright gives each launch a fresh temporary --user-data-dir of its own and removes it on close.
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  // Each browser test file skips first when chromium is absent (helpers/system-programs.ts).
  const executablePath = findProgram(CHROMIUM);
  if (!executablePath) throw new Error('chromium is missing: apt-get install chromium (.ci/run does this)');
  return chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** The switches of every launch (launchChromium, and the persistent profile of the installability test). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
  '--no-proxy-server',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/** A fresh browser profile (cookies and all) that may only talk to the app under test; British, in Berlin, at desktop width unless told. */
export async function newContext(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-GB', timezoneId: 'Europe/Berlin', ...options, baseURL });
  const allowed = new URL(baseURL).origin;
  await context.route('**/*', (route) => (new URL(route.request().url()).origin === allowed ? route.continue() : route.abort()));
  return context;
}

/**
 * The page at desktop and phone width into docs/screenshots, and a check that at phone width
 * nothing pushes the page sideways; `sideways` names why a page may (a third party's layout).
 */
export async function screenshot(page: Page, name: string, options: { sideways?: string } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  // Two frames, so what the page's resize observers do with the new width is in the picture.
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-phone.png`), fullPage: true });
  const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
  await page.setViewportSize(DESKTOP);
  if (width > PHONE.width && options.sideways === undefined)
    throw new Error(`${name}: at ${PHONE.width} px wide the page is ${width} px wide (it scrolls sideways)`);
}
