import { describe, expect, it } from 'vitest';
import { createDeviceCookies, type DeviceSubject } from './device-cookie';

const devices = createDeviceCookies({ sessionSecret: 'unit-test-session-secret-0123456789' });
const anna: DeviceSubject = { kind: 'portal', login: 'anna@example.com' };
const ewa: DeviceSubject = { kind: 'portal', login: 'ewa@example.com' };
const code: DeviceSubject = { kind: 'result', accessCode: 'Xk7mP2qa' };

describe('device cookies', () => {
  it('vouch for the subject they were issued for, and for no other', () => {
    const cookie = devices.renewed(undefined, anna);
    expect(devices.trustedNonce(cookie, anna)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(devices.trustedNonce(cookie, { kind: 'portal', login: 'ANNA@example.com' })).toBe(devices.trustedNonce(cookie, anna));
    expect(devices.trustedNonce(cookie, ewa)).toBeUndefined();
    // An access code equal to a login is still another subject.
    expect(devices.trustedNonce(cookie, { kind: 'result', accessCode: 'anna@example.com' })).toBeUndefined();
  });

  it('treat access codes case-sensitively, as the codes themselves are', () => {
    const cookie = devices.renewed(undefined, code);
    expect(devices.trustedNonce(cookie, code)).toBeDefined();
    expect(devices.trustedNonce(cookie, { kind: 'result', accessCode: 'xk7mp2qa' })).toBeUndefined();
  });

  it('ignore a changed signature, another key and garbage', () => {
    const cookie = devices.renewed(undefined, anna);
    const tampered = `${cookie.slice(0, -1)}${cookie.endsWith('A') ? 'B' : 'A'}`;
    expect(devices.trustedNonce(tampered, anna)).toBeUndefined();
    const otherServer = createDeviceCookies({ sessionSecret: 'another-session-secret-0123456789ab' });
    expect(otherServer.trustedNonce(cookie, anna)).toBeUndefined();
    for (const garbage of [undefined, '', '~~~', 'x.y', `${cookie}\u0000`]) expect(devices.trustedNonce(garbage, anna)).toBeUndefined();
  });

  it('hold the newest few subjects of a shared browser, one fresh entry each, and nothing in clear', () => {
    let cookie = devices.renewed(undefined, anna);
    const firstNonce = devices.trustedNonce(cookie, anna);
    cookie = devices.renewed(cookie, ewa);
    cookie = devices.renewed(cookie, anna);
    expect(devices.trustedNonce(cookie, anna)).not.toBe(firstNonce);
    expect(cookie.split('~')).toHaveLength(2);
    expect(cookie).not.toMatch(/anna|ewa|example/i);

    for (const login of ['b@example.com', 'c@example.com', 'd@example.com']) cookie = devices.renewed(cookie, { kind: 'portal', login });
    expect(cookie.split('~')).toHaveLength(4);
    expect(devices.trustedNonce(cookie, { kind: 'portal', login: 'd@example.com' })).toBeDefined();
    expect(devices.trustedNonce(cookie, ewa)).toBeUndefined();
  });
});
