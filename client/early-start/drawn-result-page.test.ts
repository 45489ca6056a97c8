// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RESULT_PAGE_ANSWERS_ID, type ResultPageAnswers } from '@common/drawn-result-page';
import { session } from '../stores/session-store';
import { demoGuest, fakeApi } from '../testing/session';
import { adoptDrawnResultPage, adoptResultPageAnswers, takeDrawnResultPageAnswers } from './drawn-result-page';
import { arrivedBanners, arrivedResult, fetchBanners, fetchResult } from './result-requests';

const answers = {
  user: demoGuest,
  result: { screening: { id: 41 } },
  banners: {
    'top-placement': [{ id: 1, position: 'top-placement', imageUrl: '/banners/a.svg', linkUrl: null, alt: { pl: 'A', en: 'A' } }],
    'bottom-placement': [],
  },
} as unknown as ResultPageAnswers;

function drawnPageCarrying(text: string): void {
  document.body.innerHTML = `<div id="root" inert></div><script type="application/json" id="${RESULT_PAGE_ANSWERS_ID}">${text}</script>`;
}

afterEach(() => {
  document.body.innerHTML = '';
  session.status = 'unknown';
  session.user = null;
  vi.unstubAllGlobals();
});

describe('the answers of a result page the server drew', () => {
  it('are read once, and leave the document with her data in it', () => {
    drawnPageCarrying(JSON.stringify(answers));
    expect(takeDrawnResultPageAnswers()).toEqual(answers);
    expect(document.getElementById(RESULT_PAGE_ANSWERS_ID)).toBeNull();
    expect(takeDrawnResultPageAnswers()).toBeUndefined();
  });

  it('are none on any other page, or when unreadable', () => {
    expect(takeDrawnResultPageAnswers()).toBeUndefined();
    drawnPageCarrying('{"user":');
    expect(takeDrawnResultPageAnswers()).toBeUndefined();
    expect(document.getElementById(RESULT_PAGE_ANSWERS_ID)).toBeNull();
  });

  it('start the app signed in, with her result and the logos as answered, asking for neither again', async () => {
    const requests = fakeApi({});
    drawnPageCarrying(JSON.stringify(answers));
    adoptDrawnResultPage();

    expect(session).toEqual({ status: 'signedIn', user: demoGuest });
    expect(arrivedResult(undefined)).toEqual(answers.result);
    expect(arrivedBanners('top-placement')).toEqual(answers.banners['top-placement']);
    expect(await fetchResult(undefined)).toEqual(answers.result);
    expect(await fetchBanners('bottom-placement')).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('are forgotten on request, unless the page took them', async () => {
    const requests = fakeApi({ 'GET /screening/result': () => ({ body: { screening: { id: 41 } } }) });
    const forget = adoptResultPageAnswers(answers);
    await fetchBanners('top-placement');
    forget();

    expect(session.status).toBe('unknown');
    expect(arrivedResult(undefined)).toBeUndefined();
    await fetchResult(undefined);
    expect(requests.map((request) => request.path)).toEqual(['/screening/result']);
  });
});
