// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module per test: it remembers, once per page, that the load has passed. */
async function freshModule() {
  vi.resetModules();
  return import('./after-page-load');
}

describe('afterPageLoad', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('waits for the load event, then for the browser to be idle', async () => {
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    const { afterPageLoad } = await freshModule();
    let passed = false;
    void afterPageLoad().then(() => (passed = true));

    await Promise.resolve();
    expect(idle).toHaveLength(0);
    window.dispatchEvent(new Event('load'));
    expect(idle).toHaveLength(1);
    await Promise.resolve();
    expect(passed).toBe(false);
    idle[0]!();
    await vi.waitFor(() => expect(passed).toBe(true));
  });

  it('on a page already loaded waits only for the next idle moment, once for every caller', async () => {
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('complete');
    const idle = vi.fn((callback: () => void) => setTimeout(callback, 0));
    vi.stubGlobal('requestIdleCallback', idle);
    const { afterPageLoad } = await freshModule();

    await Promise.all([afterPageLoad(), afterPageLoad()]);
    expect(idle).toHaveBeenCalledTimes(1);
  });
});
