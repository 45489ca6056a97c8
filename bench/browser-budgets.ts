import { rmSync } from 'node:fs';
import { startPortal, stopPortal } from './http-budget';
import { launchChromium } from './mobile-profile';
import { measureOfflinePdfRender, printOfflinePdfRender } from './offline-pdf-render';
import { measureResultPageVitals, printResultPageVitals } from './result-page-vitals';
import { freePort } from '../tests/support/free-port';

/**
 * The result page's budgets of issue 4 measured in Chromium, on a demo portal of their own serving
 * `clientDir`. True when every budget is met.
 */
export async function benchResultPageInBrowser(clientDir: string): Promise<boolean> {
  const port = await freePort();
  const portal = await startPortal(port, { CLIENT_DIR: clientDir });
  // The host name the Playwright journeys use (playwright.config.ts).
  const base = `http://localhost:${port}`;
  const browser = await launchChromium();
  try {
    const vitalsOk = printResultPageVitals(await measureResultPageVitals(browser, base));
    const pdfOk = printOfflinePdfRender(await measureOfflinePdfRender(browser, base));
    return vitalsOk && pdfOk;
  } finally {
    await browser.close();
    await stopPortal(portal);
    // Files the demo portal wrote for this run alone (tests/support/serve-demo.ts names the folder).
    rmSync(`data/demo-${port}`, { recursive: true, force: true });
  }
}
