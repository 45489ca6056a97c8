import type { BrowserDetails } from '@common/audit';

type Brand = { brand: string; version: string };
/** `navigator.userAgentData` (User-Agent Client Hints); Chromium-based browsers only. */
export type UserAgentData = { brands: readonly Brand[]; platform: string };

type BrowserName = { browserName: string; browserVersion: string };
const UNKNOWN = 'Unknown';

/** Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari". */
const BROWSER_PATTERNS: readonly [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/([\d.]+)/, 'Edge'],
  [/(?:OPR|Opera)\/([\d.]+)/, 'Opera'],
  [/SamsungBrowser\/([\d.]+)/, 'Samsung Internet'],
  [/(?:Firefox|FxiOS)\/([\d.]+)/, 'Firefox'],
  [/(?:Chrome|CriOS)\/([\d.]+)/, 'Chrome'],
  [/Version\/([\d.]+).*Safari\//, 'Safari'],
];

const OS_PATTERNS: readonly [RegExp, string][] = [
  [/Windows/, 'Windows'],
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

export function browserFromUserAgent(userAgent: string): BrowserName {
  for (const [pattern, browserName] of BROWSER_PATTERNS) {
    const version = pattern.exec(userAgent)?.[1];
    if (version) return { browserName, browserVersion: version };
  }
  return { browserName: UNKNOWN, browserVersion: '' };
}

export function osFromUserAgent(userAgent: string): string {
  return OS_PATTERNS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? UNKNOWN;
}

/** The real brand among the client hints: not the "Not A Brand" decoy, and Chromium only when alone. */
export function browserFromBrands(brands: readonly Brand[]): BrowserName | null {
  const real = brands.filter(({ brand }) => !/not.?a.?brand/i.test(brand));
  const chosen = real.find(({ brand }) => brand !== 'Chromium') ?? real[0];
  return chosen ? { browserName: chosen.brand, browserVersion: chosen.version } : null;
}

/** What spec section 3 calls browser details, from the client hints when present, else the UA string. */
export function describeBrowser(input: {
  userAgent: string;
  userAgentData?: UserAgentData;
  screen: { width: number; height: number };
}): BrowserDetails {
  const fromHints = input.userAgentData ? browserFromBrands(input.userAgentData.brands) : null;
  const browser = fromHints ?? browserFromUserAgent(input.userAgent);
  return {
    ...browser,
    os: input.userAgentData?.platform || osFromUserAgent(input.userAgent),
    resolutionX: Math.round(input.screen.width),
    resolutionY: Math.round(input.screen.height),
  };
}
