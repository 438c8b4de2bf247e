import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * axe-core's serious and critical findings on the page, in light and in dark mode (the colours
 * differ, so contrast is checked in both). An empty list is the pass.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const result = await new AxeBuilder({ page }).analyze();
    for (const v of result.violations) {
      if (v.impact === 'serious' || v.impact === 'critical') {
        found.push(
          `${colorScheme} ${page.url()} ${v.id}: ${v.help} (${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')})`,
        );
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
