import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PartHeaderSanitizer, UNNAMEABLE_MARK } from './part-header-sanitizer';

const BOUNDARY = '----formdata-undici-0123456789';

/** A multipart body as a browser sends it; file contents are latin1 so any byte can be written. */
function body(parts: { name: string; content: string }[]): Buffer {
  const chunks = parts.map(
    ({ name, content }) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="dicoms"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n`,
  );
  return Buffer.from(`${chunks.join('')}--${BOUNDARY}--\r\n`, 'latin1');
}

/** The body through the sanitizer, cut into chunks at `cuts`. */
async function sanitized(input: Buffer, cuts: number[] = []): Promise<Buffer> {
  const points = [...new Set(cuts.filter((cut) => cut > 0 && cut < input.length))].sort((a, b) => a - b);
  const chunks = [0, ...points].map((start, index) => input.subarray(start, points[index] ?? input.length));
  const output: Buffer[] = [];
  const stream = Readable.from(chunks).pipe(new PartHeaderSanitizer(BOUNDARY));
  for await (const chunk of stream) output.push(chunk as Buffer);
  return Buffer.concat(output);
}

// File contents holding every troublesome thing: control bytes, CR/LF, a boundary-like text, a blank line.
const HOSTILE_CONTENT = `a\u0001b\u001b\r\n\r\n--${BOUNDARY.slice(0, 10)}\u007f\r\nContent-Disposition: x\u0002\r\n\r\nend`;

describe('PartHeaderSanitizer', () => {
  it('passes a clean body through byte for byte', async () => {
    const input = body([
      { name: 'folder/a.dcm', content: HOSTILE_CONTENT },
      { name: 'b.dcm', content: '' },
    ]);
    expect((await sanitized(input)).equals(input)).toBe(true);
  });

  it('marks the control characters of a file name and leaves the file contents alone', async () => {
    const input = body([
      { name: 'scan\u0001\u001b[1m\u007f.dcm', content: HOSTILE_CONTENT },
      { name: 'good.dcm', content: 'x' },
    ]);
    const output = (await sanitized(input)).toString('utf8');
    expect(output).toContain(`filename="scan${UNNAMEABLE_MARK}${UNNAMEABLE_MARK}[1m${UNNAMEABLE_MARK}.dcm"`);
    expect(output).toContain(HOSTILE_CONTENT);
    expect(output).toContain('filename="good.dcm"');
  });

  it('gives the same bytes however the body is cut into chunks', async () => {
    const input = body([
      { name: 'x\u0001y.dcm', content: HOSTILE_CONTENT },
      { name: 'z\u0007.dcm', content: `\r\n--${BOUNDARY}-not-quite` },
    ]);
    const whole = await sanitized(input);
    expect(
      (
        await sanitized(
          input,
          Array.from({ length: input.length }, (_, index) => index),
        )
      ).equals(whole),
    ).toBe(true);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: input.length }), { maxLength: 20 }), async (cuts) => {
        expect((await sanitized(input, cuts)).equals(whole)).toBe(true);
      }),
      { seed: 20261126, numRuns: 200 },
    );
  });

  it('passes what is not multipart as it came', async () => {
    const input = Buffer.from('no boundary here \u0001 at all', 'latin1');
    expect(await text(Readable.from([await sanitized(input)]))).toBe(input.toString('latin1'));
  });
});
