import { existsSync } from 'node:fs';
import { chromium, devices, type Browser, type BrowserContextOptions, type CDPSession, type Page } from '@playwright/test';

/**
 * Chromium as the Playwright journeys drive it (playwright.config.ts), and the device profiles the
 * browser budgets are measured on.
 */
export function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

const common: BrowserContextOptions = { locale: 'pl-PL', timezoneId: 'Europe/Warsaw', serviceWorkers: 'allow' };

/** Lighthouse's mobile screen emulation (a Moto G Power): 412x823 CSS pixels at 1.75, touch. */
export const lighthouseMobile: BrowserContextOptions = {
  ...common,
  viewport: { width: 412, height: 823 },
  screen: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
};

export const desktop: BrowserContextOptions = { ...common, ...devices['Desktop Chrome'] };

/**
 * Lighthouse's "slow 4G" targets are 150 ms RTT, 1.6 Mbps down and 750 Kbps up. Applied in the
 * browser (request-level throttling, Lighthouse's `throttlingMethod: 'devtools'`), Lighthouse
 * multiplies the latency by 3.75 and the throughput by 0.9 to reach the same page-load times a
 * packet-level link of those targets gives; these are its applied figures.
 */
const SLOW_4G = { latencyMs: 150 * 3.75, downloadKbps: 1.6 * 1024 * 0.9, uploadKbps: 750 * 0.9 };
export const MOBILE_CPU_SLOWDOWN = 4;

export type Throttling = { cpuSlowdown: number; network: typeof SLOW_4G | null; offline?: boolean };
export const UNTHROTTLED: Throttling = { cpuSlowdown: 1, network: null };
export const LIGHTHOUSE_MOBILE_THROTTLING: Throttling = { cpuSlowdown: MOBILE_CPU_SLOWDOWN, network: SLOW_4G };

const kbpsToBytesPerSecond = (kbps: number) => (kbps * 1024) / 8;

/** Applies CPU and network throttling to the page's target, through a CDP session of its own. */
export async function throttle(cdp: CDPSession, { cpuSlowdown, network, offline = false }: Throttling): Promise<void> {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
  await cdp.send('Network.emulateNetworkConditions', {
    offline,
    latency: network?.latencyMs ?? 0,
    downloadThroughput: network ? kbpsToBytesPerSecond(network.downloadKbps) : -1,
    uploadThroughput: network ? kbpsToBytesPerSecond(network.uploadKbps) : -1,
  });
}

export async function cdpSessionOf(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  return cdp;
}

export function describeThrottling({ cpuSlowdown, network }: Throttling): string {
  const net = network
    ? `${network.latencyMs} ms latency, ${(network.downloadKbps / 1024).toFixed(2)} Mbps down, ${network.uploadKbps.toFixed(0)} Kbps up`
    : 'no network throttling';
  return `${cpuSlowdown}x CPU slowdown, ${net}`;
}
