import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from './pdf-download';

describe('attachmentDisposition', () => {
  it('keeps an ASCII name as it is in both parameters', () => {
    expect(attachmentDisposition('opis-badania-2026-10-06-EN.pdf')).toBe(
      `attachment; filename="opis-badania-2026-10-06-EN.pdf"; filename*=UTF-8''opis-badania-2026-10-06-EN.pdf`,
    );
  });

  it('encodes Polish letters per RFC 5987 and gives old clients a plain-letter name', () => {
    expect(attachmentDisposition("Wykaz placówek (łódzkie)'s.pdf")).toBe(
      `attachment; filename="Wykaz placowek (lodzkie)'s.pdf"; filename*=UTF-8''Wykaz%20plac%C3%B3wek%20%28%C5%82%C3%B3dzkie%29%27s.pdf`,
    );
  });

  it('cannot be broken out of by quotes or backslashes', () => {
    expect(attachmentDisposition('a"b\\c.pdf')).toBe(`attachment; filename="a_b_c.pdf"; filename*=UTF-8''a%22b%5Cc.pdf`);
  });
});
