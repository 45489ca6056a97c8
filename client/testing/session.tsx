import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { SessionUser } from '@common/types/session';
import { setLanguage } from '../stores/prefs-store';
import { startIntl } from '../lib/intl';

/** Test helpers for the auth screens: an English UI, a router in memory and a fake API. */

export async function startEnglish(): Promise<void> {
  setLanguage('en');
  await startIntl();
}

type FakeRequest = { method: string; path: string; headers: Record<string, string>; body: unknown };
export type FakeAnswer = { status?: number; body?: unknown; headers?: Record<string, string> };
export type FakeRoutes = Record<string, (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>>;

/** Answers `METHOD /path` (without /api and the query) from the table; anything else is 404. */
export function fakeApi(routes: FakeRoutes) {
  const requests: FakeRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const path = url.replace(/^\/api/, '').split('?')[0] ?? '';
      const method = init.method ?? 'GET';
      const request: FakeRequest = {
        method,
        path,
        headers: { ...(init.headers as Record<string, string>) },
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      requests.push(request);
      const handler = routes[`${method} ${path}`];
      const answer = handler ? await handler(request) : { status: 404, body: { code: 'NOT_FOUND' } };
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'Content-Type': 'application/json', ...answer.headers },
      });
    }),
  );
  return requests;
}

export function renderAt(path: string, ui: ReactNode) {
  const location = memoryLocation({ path, record: true });
  const result = render(<Router hook={location.hook}>{ui}</Router>);
  return { ...result, location };
}

export const demoGuest: SessionUser = {
  id: null,
  guest: true,
  email: null,
  personalDataId: null,
  requirePasswordChange: false,
  personalData: null,
  screeningId: 41,
};

export const demoPatient: SessionUser = {
  id: 1,
  guest: false,
  email: 'anna.nowak@example.com',
  personalDataId: 10,
  requirePasswordChange: false,
  personalData: {
    firstName: 'Anna',
    lastName: 'Nowak',
    birthAt: '1961-03-05',
    pesel: null,
    email: 'anna.nowak@example.com',
    phoneNumber: null,
  },
  screeningId: null,
};
