// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { Route } from 'wouter';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderAt, startEnglish } from '../../../testing/session';
import OrderSuccessPage from './OrderSuccessPage';

const renderSuccess = (type: string) => renderAt(`/${type}/success`, <Route path="/:type/success" component={OrderSuccessPage} />);

beforeAll(startEnglish);
afterEach(cleanup);

describe('OrderSuccessPage', () => {
  it('thanks for an order and links to the screenings list', () => {
    renderSuccess('order');
    expect(screen.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to your screenings' }).getAttribute('href')).toBe('/screenings');
  });

  it('confirms a payment', () => {
    renderSuccess('payment');
    expect(screen.getByRole('heading', { level: 1, name: 'Payment received' })).toBeTruthy();
  });
});
