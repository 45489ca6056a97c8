import { describe, expect, it } from 'vitest';
import { isAnsweredWithShell } from './navigation-policy';

describe('navigations answered with the offline app shell', () => {
  it.each([
    '/',
    '/faq',
    '/portal/regulations',
    '/portal/consent',
    '/copy-of-medical-clerking',
    '/login',
    '/screening/42/survey',
    // The patient's lists, which the installed app shows offline as last seen on the device.
    '/screenings',
    '/screenings?tab=referrals&page=2&result=none',
    '/referral',
    '/change-password/6f1c0c1e-2b7a-4f5e-9d3b-1f8e2a7c9d10',
    '/payment?paymentId=17&screeningId=4&error=1.5',
  ])('opens %s from the shell', (path) => {
    expect(isAnsweredWithShell(path)).toBe(true);
  });

  it.each(['/api', '/api/auth/logout', '/api?x=1', '/api/screening/4/iso.iso'])('leaves the API call %s to the network', (path) => {
    expect(isAnsweredWithShell(path)).toBe(false);
  });

  it('leaves the sandbox checkout page to the server that makes it', () => {
    expect(isAnsweredWithShell('/payment-sandbox/d80abe75-8db4-4456-b01d-4051c9c8665b?lang=pl')).toBe(false);
  });

  it.each(['/documents/copy-request-form.pdf', '/icons/icon-512.png', '/documents/form.pdf?download=1'])(
    'lets the file link %s reach the file',
    (path) => {
      expect(isAnsweredWithShell(path)).toBe(false);
    },
  );

  it('does not mistake paths that merely start with "api" for the API', () => {
    expect(isAnsweredWithShell('/apiary')).toBe(true);
  });
});
