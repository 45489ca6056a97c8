import { describe, expect, it } from 'vitest';
import { isPublicPath, pathFor, routeForPath, ROUTES } from './paths';

describe('the route table', () => {
  it('has one entry per route name and per path', () => {
    expect(new Set(ROUTES.map((route) => route.name)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((route) => route.path)).size).toBe(ROUTES.length);
  });

  it('lets visitors open the public pages without a session check', () => {
    for (const path of [
      '/',
      '/login',
      '/portal/login',
      '/faq',
      '/contact',
      '/contact/success',
      '/reset-password',
      '/reset-password/sent',
      '/change-password/6f1c2c8e-3b0a-4c55-9d7e-0f4c2b7a9e11',
      '/password-changed',
      '/portal/consent',
      '/portal/regulations',
      '/copy-of-medical-clerking',
    ]) {
      expect(isPublicPath(path), path).toBe(true);
    }
  });

  it('checks the session on every other page', () => {
    for (const path of [
      '/screening',
      '/screening/survey',
      '/screening/12/survey',
      '/screenings',
      '/referral',
      '/portal/profile',
      '/portal/upload-screenings',
      '/audit',
      '/portal/audit',
      '/order-screening-copy/12',
      '/payment',
      '/order/5/status',
      '/buy-consultation/screening/12',
      '/order/success',
      '/payment/success',
    ]) {
      expect(isPublicPath(path), path).toBe(false);
    }
  });

  it('treats unknown paths as public, because they are sent to base', () => {
    expect(routeForPath('/no/such/page')).toBeNull();
    expect(isPublicPath('/no/such/page')).toBe(true);
  });

  it('keeps the contact success page public although /{type}/success is not', () => {
    expect(routeForPath('/contact/success')?.route.name).toBe('contact_submitted');
    expect(routeForPath('/order/success')?.route.name).toBe('success');
  });

  it('tells the result-portal pages from the patient pages', () => {
    expect(routeForPath('/audit')?.route.access).toBe('result');
    expect(routeForPath('/portal/audit')?.route.access).toBe('patient');
    expect(routeForPath('/screening/12/survey')).toEqual({
      route: { name: 'survey_of_screening', path: '/screening/:id/survey', access: 'result' },
      params: { id: '12' },
    });
  });

  it('ignores the query string and a trailing slash when matching', () => {
    expect(routeForPath('/payment?paymentId=1&screeningId=2')?.route.name).toBe('after_payment');
    expect(routeForPath('/faq/')?.route.name).toBe('faq');
  });

  // Where the guard's former hand-written matcher and wouter disagreed; the guard now decides on
  // the page wouter renders (the rendering side is checked in routes-render.test.tsx).
  it('matches as wouter does: any letter case, no empty segment, parameters as they stand in the location', () => {
    expect(routeForPath('/FAQ')?.route.name).toBe('faq');
    expect(routeForPath('/Portal/Audit')?.route.name).toBe('portal_audit');
    expect(routeForPath('/screening//survey')).toBeNull();
    expect(routeForPath('/change-password/a%2Fb')?.params).toEqual({ token: 'a%2Fb' });
  });

  it('builds paths with encoded parameters', () => {
    expect(pathFor('order_status', { id: 7 })).toBe('/order/7/status');
    expect(pathFor('change_password_with_token', { token: 'a/b' })).toBe('/change-password/a%2Fb');
    expect(() => pathFor('order_screening_copy')).toThrow(/screeningId/);
  });
});
