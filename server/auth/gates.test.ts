import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { requirePasswordChanged, requirePatient, requireSession } from './gates';

type SessionFields = Record<string, unknown>;

function requestWith(session: SessionFields | undefined, url = '/api/something'): Request {
  return { session, originalUrl: url } as unknown as Request;
}

function outcome(gate: typeof requireSession, req: Request): string {
  try {
    let passed = false;
    gate(req, {} as never, () => void (passed = true));
    return passed ? 'passed' : 'stopped';
  } catch (error) {
    const { status, code } = error as { status: number; code: string };
    return `${status} ${code}`;
  }
}

const anonymous = { kind: 'anonymous', csrfToken: 't' };
const guest = { kind: 'guest', screeningId: 7 };
const patient = { kind: 'patient', userId: 3, requirePasswordChange: false };
const mustChange = { kind: 'patient', userId: 4, requirePasswordChange: true };

describe('requireSession', () => {
  it('lets guests and patients through and answers 401 to everyone else', () => {
    expect(outcome(requireSession, requestWith(undefined))).toBe('401 UNAUTHENTICATED');
    expect(outcome(requireSession, requestWith(anonymous))).toBe('401 UNAUTHENTICATED');
    expect(outcome(requireSession, requestWith(guest))).toBe('passed');
    expect(outcome(requireSession, requestWith(patient))).toBe('passed');
  });
});

describe('requirePatient', () => {
  it('answers a guest 404, as if the patient-only thing did not exist (DECISIONS.md 4)', () => {
    expect(outcome(requirePatient, requestWith(undefined))).toBe('401 UNAUTHENTICATED');
    expect(outcome(requirePatient, requestWith(guest))).toBe('404 NOT_FOUND');
    expect(outcome(requirePatient, requestWith(patient))).toBe('passed');
  });
});

describe('requirePasswordChanged', () => {
  it('holds a flagged patient everywhere but her profile and the auth calls', () => {
    expect(outcome(requirePasswordChanged, requestWith(mustChange, '/api/screening?id=1'))).toBe('403 PASSWORD_CHANGE_REQUIRED');
    expect(outcome(requirePasswordChanged, requestWith(mustChange, '/api/audit'))).toBe('403 PASSWORD_CHANGE_REQUIRED');
    for (const open of ['/api/user/profile', '/api/auth/logout', '/api/auth/csrf', '/api/auth/password']) {
      expect(outcome(requirePasswordChanged, requestWith(mustChange, open))).toBe('passed');
    }
  });

  it('does not concern anyone else', () => {
    for (const session of [undefined, anonymous, guest, patient]) {
      expect(outcome(requirePasswordChanged, requestWith(session, '/api/screening'))).toBe('passed');
    }
  });
});
