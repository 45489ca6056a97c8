import { describe, expect, it } from 'vitest';
import type { SessionUser } from '@common/types/session';
import { demoGuest, demoPatient } from '../testing/session';
import { decideNavigation, userHomePath, type GateState } from './decide-navigation';

const guest = demoGuest;
const anna = demoPatient;
const ewa: SessionUser = { ...anna, id: 2, email: 'ewa.wisniewska@example.com', requirePasswordChange: true };

const unknown: GateState = { status: 'unknown', user: null };
const signedOut: GateState = { status: 'signedOut', user: null };
const as = (user: SessionUser, extra: Partial<GateState> = {}): GateState => ({ status: 'signedIn', user, ...extra });

const render = { kind: 'render' };
const wait = { kind: 'wait' };
const to = (path: string) => ({ kind: 'redirect', to: path });

describe('decideNavigation', () => {
  it('renders public pages for everyone without waiting for the session', () => {
    for (const path of ['/', '/faq', '/contact', '/portal/regulations', '/portal/consent', '/reset-password', '/change-password/abc']) {
      expect(decideNavigation(path, unknown), path).toEqual(render);
      expect(decideNavigation(path, signedOut), path).toEqual(render);
      expect(decideNavigation(path, as(anna)), path).toEqual(render);
    }
  });

  it('sends unknown paths to base', () => {
    expect(decideNavigation('/no/such/page', unknown)).toEqual(to('/'));
    expect(decideNavigation('/screenings/extra', as(anna))).toEqual(to('/'));
  });

  it('waits on guarded pages until the session is known', () => {
    for (const path of ['/screening', '/screening/7/survey', '/audit', '/screenings', '/portal/profile', '/order/5/status']) {
      expect(decideNavigation(path, unknown), path).toEqual(wait);
    }
  });

  it('sends a signed-out visitor of result-portal pages to the result login', () => {
    for (const path of ['/screening', '/screening/survey', '/screening/7/survey', '/audit']) {
      expect(decideNavigation(path, signedOut), path).toEqual(to('/login'));
    }
  });

  it('opens a result page offline only when this device keeps a copy of it', () => {
    const offlineCopy: GateState = { ...signedOut, offlineCopy: true };
    expect(decideNavigation('/screening', offlineCopy)).toEqual(render);
    expect(decideNavigation('/screening/12', offlineCopy)).toEqual(render);
    expect(decideNavigation('/portal/profile', offlineCopy)).toEqual(to('/portal/login'));
    expect(decideNavigation('/screening/12', signedOut)).toEqual(to('/portal/login'));
    expect(decideNavigation('/screening', signedOut)).toEqual(to('/login'));
  });

  it('opens a screening’s images offline only when this device keeps them', () => {
    expect(decideNavigation('/screening/12/images', { ...signedOut, offlineCopy: true })).toEqual(render);
    expect(decideNavigation('/screening/12/images', signedOut)).toEqual(to('/login'));
    // Uploaded studies are never kept: offline they are not opened.
    expect(decideNavigation('/portal/uploaded-studies/1.2.3', { ...signedOut, offlineCopy: true })).toEqual(to('/portal/login'));
  });

  it('opens the screenings list and the referrals offline only when this device keeps them', () => {
    const offlineCopy: GateState = { ...signedOut, offlineCopy: true };
    expect(decideNavigation('/screenings', offlineCopy)).toEqual(render);
    expect(decideNavigation('/screenings?tab=referrals', offlineCopy)).toEqual(render);
    expect(decideNavigation('/referral', offlineCopy)).toEqual(render);
    expect(decideNavigation('/screenings', signedOut)).toEqual(to('/portal/login'));
    expect(decideNavigation('/referral', signedOut)).toEqual(to('/portal/login'));
    // What needs the server is never opened from the device.
    for (const path of ['/order-screening-copy/3', '/portal/upload-screenings', '/portal/audit']) {
      expect(decideNavigation(path, offlineCopy), path).toEqual(to('/portal/login'));
    }
  });

  it('sends a signed-out visitor of other guarded pages to the patient login', () => {
    for (const path of [
      '/screenings',
      '/referral',
      '/portal/profile',
      '/portal/upload-screenings',
      '/portal/audit',
      '/order-screening-copy/3',
      '/payment',
      '/order/9/status',
      '/order/success',
    ]) {
      expect(decideNavigation(path, signedOut), path).toEqual(to('/portal/login'));
    }
  });

  it('sends a signed-in user away from the login pages to her start page', () => {
    expect(decideNavigation('/login', as(guest))).toEqual(to('/screening'));
    expect(decideNavigation('/portal/login', as(guest))).toEqual(to('/screening'));
    expect(decideNavigation('/login', as(anna))).toEqual(to('/screenings'));
    expect(decideNavigation('/portal/login', as(anna))).toEqual(to('/screenings'));
    expect(decideNavigation('/portal/login', as(ewa))).toEqual(to('/portal/profile'));
  });

  it('keeps a user who must change the password on the profile', () => {
    expect(decideNavigation('/portal/profile', as(ewa))).toEqual(render);
    for (const path of ['/screenings', '/referral', '/portal/audit', '/screening/3/survey', '/order/1/status']) {
      expect(decideNavigation(path, as(ewa)), path).toEqual(to('/portal/profile'));
    }
  });

  it('lets a guest use the pages of her one screening', () => {
    for (const path of ['/screening', '/screening/survey', '/screening/41/survey', '/screening/41/images', '/audit', '/order/3/status']) {
      expect(decideNavigation(path, as(guest)), path).toEqual(render);
    }
  });

  it('refuses patient-only pages to a guest', () => {
    for (const path of [
      '/screenings',
      '/referral',
      '/portal/profile',
      '/portal/upload-screenings',
      '/order-screening-copy/41',
      '/payment',
      '/portal/uploaded-studies/1.2.840.113619.2.1',
    ]) {
      expect(decideNavigation(path, as(guest)), path).toEqual(to('/screening'));
    }
    expect(decideNavigation('/portal/audit', as(guest))).toEqual(to('/audit'));
  });

  it('sends a patient from the guest-only pages to her own', () => {
    expect(decideNavigation('/screening', as(anna))).toEqual(to('/screenings'));
    expect(decideNavigation('/screening/survey', as(anna))).toEqual(to('/screenings'));
    expect(decideNavigation('/audit', as(anna))).toEqual(to('/portal/audit'));
  });

  it('lets a patient use her own pages and the survey of a screening by id', () => {
    for (const path of [
      '/screenings',
      '/referral',
      '/portal/profile',
      '/portal/upload-screenings',
      '/portal/audit',
      '/screening/12/survey',
      '/screening/12/images',
      '/portal/uploaded-studies/1.2.840.113619.2.1',
      '/order/3/status',
    ]) {
      expect(decideNavigation(path, as(anna)), path).toEqual(render);
    }
  });

  it('sends a user whose screening was refused to her start page', () => {
    expect(decideNavigation('/screening/99/survey', as(anna, { screeningRefused: true }))).toEqual(to('/screenings'));
    expect(decideNavigation('/screening/99/survey', as(guest, { screeningRefused: true }))).toEqual(to('/screening'));
    // no loop: the guest's own result page shows its empty state instead
    expect(decideNavigation('/screening', as(guest, { screeningRefused: true }))).toEqual(render);
  });

  it('goes back from a result page whose id is not the screening the session answers (spec section 2)', () => {
    expect(decideNavigation('/screening/99/survey', as(guest, { otherScreening: true }))).toEqual({ kind: 'back', fallback: '/screening' });
    expect(decideNavigation('/screening/99/survey', as(anna, { otherScreening: true }))).toEqual({ kind: 'back', fallback: '/screenings' });
    // Signed out, the login comes first.
    expect(decideNavigation('/screening/99/survey', { status: 'signedOut', user: null, otherScreening: true })).toEqual(to('/login'));
  });

  it('ignores a stale user object when the session is signed out', () => {
    expect(decideNavigation('/screenings', { status: 'signedOut', user: anna })).toEqual(to('/portal/login'));
  });
});

describe('userHomePath', () => {
  it('follows the gating rule after login', () => {
    expect(userHomePath(guest)).toBe('/screening');
    expect(userHomePath(anna)).toBe('/screenings');
    expect(userHomePath(ewa)).toBe('/portal/profile');
    expect(userHomePath({ ...anna, guest: false, id: null })).toBe('/screening');
  });
});
