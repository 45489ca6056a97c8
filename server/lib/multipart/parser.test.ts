import { describe, expect, it } from 'vitest';
import { MultipartError, MultipartParser, parseContentDisposition, parseMediaType } from './parser';

type Part = { headers: Record<string, string>; body: string };

/** Feeds `body` in the given pieces and collects the parts as the caller would see them. */
function parse(boundary: string, pieces: Buffer[]): Part[] {
  const parser = new MultipartParser(boundary);
  const parts: Part[] = [];
  let current: { headers: Record<string, string>; chunks: Buffer[] } | undefined;
  for (const piece of pieces) {
    for (const event of parser.write(piece)) {
      if (event.kind === 'part') current = { headers: Object.fromEntries(event.headers), chunks: [] };
      else if (event.kind === 'data') current!.chunks.push(Buffer.from(event.bytes));
      else {
        parts.push({ headers: current!.headers, body: Buffer.concat(current!.chunks).toString('latin1') });
        current = undefined;
      }
    }
  }
  parser.end();
  return parts;
}

function splitAt(body: Buffer, ...positions: number[]): Buffer[] {
  const cuts = [0, ...positions, body.length];
  return cuts.slice(1).map((end, index) => body.subarray(cuts[index], end));
}

const BOUNDARY = 'b0und4ry-x';
// Bodies that look like parts of a delimiter, to catch a search that forgets a partial match.
const FIRST = 'DICM\r\n--b0und\r\n-\r\n--b0und4ry\u0000binary';
const SECOND = '\r\n--b0und4ry-';
const BODY = Buffer.from(
  'a preamble to ignore\r\n' +
    `--${BOUNDARY}\r\nContent-Type: application/dicom\r\n\r\n${FIRST}\r\n` +
    `--${BOUNDARY}  \r\ncontent-type: application/dicom; transfer-syntax=1.2.840.10008.1.2.1\r\nX-Folded: one\r\n two\r\n\r\n${SECOND}\r\n` +
    `--${BOUNDARY}\r\n\r\n\r\n` +
    `--${BOUNDARY}--\r\nan epilogue to ignore, even with --${BOUNDARY} in it`,
  'latin1',
);
const EXPECTED: Part[] = [
  { headers: { 'content-type': 'application/dicom' }, body: FIRST },
  { headers: { 'content-type': 'application/dicom; transfer-syntax=1.2.840.10008.1.2.1', 'x-folded': 'one two' }, body: SECOND },
  { headers: {}, body: '' },
];

describe('MultipartParser', () => {
  it('reads the parts of a body in one chunk, skipping preamble and epilogue', () => {
    expect(parse(BOUNDARY, [BODY])).toEqual(EXPECTED);
  });

  it('reads the same parts wherever one chunk boundary falls', () => {
    for (let at = 0; at <= BODY.length; at++) expect(parse(BOUNDARY, splitAt(BODY, at)), `split at ${at}`).toEqual(EXPECTED);
  });

  it('reads the same parts wherever two chunk boundaries fall', () => {
    for (let first = 1; first < BODY.length; first += 3) {
      for (let second = first; second < BODY.length; second++) {
        expect(parse(BOUNDARY, splitAt(BODY, first, second)), `split at ${first}, ${second}`).toEqual(EXPECTED);
      }
    }
  });

  it('reads a body fed one byte at a time', () => {
    const bytes = [...BODY].map((byte) => Buffer.from([byte]));
    expect(parse(BOUNDARY, bytes)).toEqual(EXPECTED);
  });

  it("reads Orthanc's body: a 73-character boundary and no CRLF after the final one", () => {
    const boundary = `${'1'.repeat(36)}-${'2'.repeat(36)}`;
    const body = Buffer.from(
      `--${boundary}\r\nContent-Type: application/dicom\r\nContent-Length: 3\r\n\r\nabc\r\n--${boundary}--`,
      'latin1',
    );
    const parts = parse(boundary, [body]);
    expect(parts.map((part) => part.body.toString())).toEqual(['abc']);
    expect(() => new MultipartParser('x'.repeat(201))).toThrow('Invalid boundary');
  });

  it('reads a body that starts with CRLF before the first boundary, as dicomweb-client sends it', () => {
    const body = Buffer.from(`\r\n--${BOUNDARY}\r\nContent-Type: application/dicom\r\n\r\nabc\r\n--${BOUNDARY}--`);
    expect(parse(BOUNDARY, [body])).toEqual([{ headers: { 'content-type': 'application/dicom' }, body: 'abc' }]);
  });

  it('refuses a body without its final boundary, wherever it was cut', () => {
    const finalAt = BODY.indexOf(`--${BOUNDARY}--`);
    for (let length = 0; length < finalAt + BOUNDARY.length + 4; length++) {
      expect(() => parse(BOUNDARY, [BODY.subarray(0, length)]), `cut at ${length}`).toThrow(MultipartError);
    }
  });

  it('refuses malformed boundary lines and headers', () => {
    expect(() => parse(BOUNDARY, [Buffer.from(`--${BOUNDARY}x\r\n\r\nabc\r\n--${BOUNDARY}--`)])).toThrow(MultipartError);
    expect(() => parse(BOUNDARY, [Buffer.from(`--${BOUNDARY}\r\nno colon\r\n\r\nabc\r\n--${BOUNDARY}--`)])).toThrow(MultipartError);
    expect(() => parse(BOUNDARY, [Buffer.alloc(100 * 1024, 'x')])).toThrow(MultipartError);
    expect(() => new MultipartParser('')).toThrow(MultipartError);
  });

  it('reads part headers as UTF-8, as browsers send file names', () => {
    const body = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"; filename="zażółć.dcm"\r\n\r\nx\r\n--${BOUNDARY}--`,
    );
    expect(parse(BOUNDARY, [body])[0]!.headers['content-disposition']).toBe('form-data; name="f"; filename="zażółć.dcm"');
  });

  it('gives the bytes of a large part as slices of the chunks fed in, not copies', () => {
    const parser = new MultipartParser(BOUNDARY);
    parser.write(Buffer.from(`--${BOUNDARY}\r\n\r\n`));
    const chunk = Buffer.alloc(1000, 1);
    parser.write(chunk);
    const next = Buffer.alloc(1000, 2);
    const data = parser.write(next).flatMap((event) => (event.kind === 'data' ? [event.bytes] : []));
    expect(data.at(-1)!.buffer).toBe(next.buffer);
  });

  it('gives bytes of large parts as they come, keeping back only what may start a delimiter', () => {
    const parser = new MultipartParser(BOUNDARY);
    parser.write(Buffer.from(`--${BOUNDARY}\r\n\r\n`));
    const events = parser.write(Buffer.alloc(1000, 1));
    const data = events.flatMap((event) => (event.kind === 'data' ? [event.bytes.length] : []));
    expect(data).toEqual([1000 - (BOUNDARY.length + 4 - 1)]);
  });
});

describe('parseMediaType', () => {
  it('reads type and parameters, quoted or not', () => {
    const parsed = parseMediaType('Multipart/Related; type="application/dicom"; boundary="a b\\"c"; start=x');
    expect(parsed?.type).toBe('multipart/related');
    expect(Object.fromEntries(parsed!.parameters)).toEqual({ type: 'application/dicom', boundary: 'a b"c', start: 'x' });
  });

  it('refuses what is not a media type', () => {
    expect(parseMediaType('nonsense')).toBeUndefined();
    expect(parseMediaType('a/b; =x')).toBeUndefined();
  });
});

describe('parseContentDisposition', () => {
  it("reads a browser's file part: the name raw, backslashes and UTF-8 included", () => {
    const parsed = parseContentDisposition('form-data; name="dicoms"; filename="..\\scan ąę\u0001.dcm"');
    expect(parsed?.type).toBe('form-data');
    expect(Object.fromEntries(parsed!.parameters)).toEqual({ name: 'dicoms', filename: '..\\scan ąę\u0001.dcm' });
  });

  it('reads the RFC 5987 form and parameters without quotes', () => {
    const parsed = parseContentDisposition("form-data; name=dicoms; filename*=UTF-8''%C4%85.dcm");
    expect(Object.fromEntries(parsed!.parameters)).toEqual({ name: 'dicoms', 'filename*': "UTF-8''%C4%85.dcm" });
  });

  it('refuses what is not a disposition', () => {
    expect(parseContentDisposition('')).toBeUndefined();
    expect(parseContentDisposition('form-data; =x')).toBeUndefined();
  });
});

describe('MultipartParser with random binary parts', () => {
  it('gives back every byte of every part whatever the chunk sizes', () => {
    let state = 12345;
    const random = (below: number) => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state % below;
    };
    const boundary = 'r4nd0m';
    for (let round = 0; round < 50; round++) {
      // Bytes drawn from the boundary's own alphabet plus CR, LF and '-' make near-misses common.
      const alphabet = Buffer.from(`\r\n-${boundary}`);
      const bodies = Array.from({ length: 1 + random(4) }, () =>
        Buffer.from(Array.from({ length: random(300) }, () => alphabet[random(alphabet.length)]!)),
      );
      const delimiter = Buffer.from(`\r\n--${boundary}`);
      const clean = bodies.map((part) => {
        // A part must not contain the delimiter itself (the sender picks a boundary that is not in the data).
        let text = part;
        while (text.indexOf(delimiter) !== -1)
          text = Buffer.concat([text.subarray(0, text.indexOf(delimiter)), text.subarray(text.indexOf(delimiter) + 2)]);
        return text;
      });
      const whole = Buffer.concat([
        ...clean.flatMap((part) => [Buffer.from(`--${boundary}\r\n\r\n`), part, Buffer.from('\r\n')]),
        Buffer.from(`--${boundary}--`),
      ]);
      const pieces: Buffer[] = [];
      for (let at = 0; at < whole.length;) {
        const size = 1 + random(40);
        pieces.push(whole.subarray(at, at + size));
        at += size;
      }
      expect(parse(boundary, pieces).map((part) => part.body)).toEqual(clean.map((part) => part.toString('latin1')));
    }
  });
});
