import { describe, expect, it } from 'vitest';
import { decideTransition } from './payment-transitions';

const payment = (status: 'NEW' | 'PENDING' | 'COMPLETED' | 'CANCELED') => ({ status, amountGrosze: 2100, currency: 'PLN' });

describe('a verified payment report', () => {
  it('moves a payment forward', () => {
    expect(decideTransition(payment('NEW'), payment('PENDING'))).toBe('applied');
    expect(decideTransition(payment('NEW'), payment('COMPLETED'))).toBe('applied');
    expect(decideTransition(payment('PENDING'), payment('COMPLETED'))).toBe('applied');
    expect(decideTransition(payment('PENDING'), payment('CANCELED'))).toBe('applied');
  });

  it('changes nothing when it repeats the status', () => {
    expect(decideTransition(payment('COMPLETED'), payment('COMPLETED'))).toBe('replay');
  });

  it('ignores an older status after a newer one', () => {
    expect(decideTransition(payment('COMPLETED'), payment('PENDING'))).toBe('stale');
    expect(decideTransition(payment('PENDING'), payment('NEW'))).toBe('stale');
    expect(decideTransition(payment('COMPLETED'), payment('CANCELED'))).toBe('stale');
  });

  it('never completes a payment whose amount or currency differs', () => {
    expect(decideTransition(payment('PENDING'), { status: 'COMPLETED', amountGrosze: 100, currency: 'PLN' })).toBe('amount_mismatch');
    expect(decideTransition(payment('PENDING'), { status: 'COMPLETED', amountGrosze: 2100, currency: 'EUR' })).toBe('amount_mismatch');
  });

  it('flags money that arrives for a cancelled payment', () => {
    expect(decideTransition(payment('CANCELED'), payment('COMPLETED'))).toBe('paid_after_cancel');
  });
});
