import type { Readable } from 'node:stream';
import { MultipartParser } from './parser';

/** What a receiver does with each part; the body is read no faster than it answers. */
export type PartVisitor = {
  part(headers: Map<string, string>): Promise<void> | void;
  data(bytes: Buffer): Promise<void> | void;
  partEnd(): Promise<void> | void;
};

/**
 * Feeds `body` through the multipart parser to `visitor`, to the final boundary. A failure (a
 * malformed or cut body: MultipartError; the visitor's own) stops the reading but leaves the body
 * open, so the answer can still go back on its connection; Node discards what was not read once
 * the answer is sent.
 */
export async function readMultipartBody(body: Readable, parser: MultipartParser, visitor: PartVisitor): Promise<void> {
  for await (const chunk of body.iterator({ destroyOnReturn: false })) {
    for (const event of parser.write(chunk as Buffer)) {
      if (event.kind === 'part') await visitor.part(event.headers);
      else if (event.kind === 'data') await visitor.data(event.bytes);
      else await visitor.partEnd();
    }
  }
  parser.end();
}
