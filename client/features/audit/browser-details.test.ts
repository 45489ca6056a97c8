import { describe, expect, it } from 'vitest';
import { browserFromBrands, browserFromUserAgent, describeBrowser, osFromUserAgent } from './browser-details';

const USER_AGENTS = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  samsungAndroid:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
};

describe('browser details from the user agent string', () => {
  it.each([
    ['chromeWindows', 'Chrome', '126.0.0.0', 'Windows'],
    ['edge', 'Edge', '126.0.2592.87', 'Windows'],
    ['firefoxLinux', 'Firefox', '127.0', 'Linux'],
    ['safariIphone', 'Safari', '17.5', 'iOS'],
    ['safariMac', 'Safari', '17.5', 'macOS'],
    ['samsungAndroid', 'Samsung Internet', '25.0', 'Android'],
  ] as const)('%s is %s %s on %s', (agent, browserName, browserVersion, os) => {
    expect(browserFromUserAgent(USER_AGENTS[agent])).toEqual({ browserName, browserVersion });
    expect(osFromUserAgent(USER_AGENTS[agent])).toBe(os);
  });

  it('says Unknown rather than guessing', () => {
    expect(browserFromUserAgent('curl/8.0')).toEqual({ browserName: 'Unknown', browserVersion: '' });
    expect(osFromUserAgent('curl/8.0')).toBe('Unknown');
  });
});

describe('browser details from client hints', () => {
  it('skip the decoy brand and prefer the product over Chromium', () => {
    const brands = [
      { brand: 'Not/A)Brand', version: '8' },
      { brand: 'Chromium', version: '126' },
      { brand: 'Microsoft Edge', version: '126' },
    ];
    expect(browserFromBrands(brands)).toEqual({ browserName: 'Microsoft Edge', browserVersion: '126' });
    expect(browserFromBrands([{ brand: 'Chromium', version: '126' }])).toEqual({ browserName: 'Chromium', browserVersion: '126' });
    expect(browserFromBrands([])).toBeNull();
  });

  it('are used when present, with the screen size', () => {
    expect(
      describeBrowser({
        userAgent: USER_AGENTS.chromeWindows,
        userAgentData: { brands: [{ brand: 'Google Chrome', version: '126' }], platform: 'Windows' },
        screen: { width: 1920, height: 1080 },
      }),
    ).toEqual({ browserName: 'Google Chrome', browserVersion: '126', os: 'Windows', resolutionX: 1920, resolutionY: 1080 });
    expect(describeBrowser({ userAgent: USER_AGENTS.safariIphone, screen: { width: 390, height: 844 } })).toEqual({
      browserName: 'Safari',
      browserVersion: '17.5',
      os: 'iOS',
      resolutionX: 390,
      resolutionY: 844,
    });
  });
});
