/** The few parts of s3rver (an S3 server for tests, no types of its own) the tests use. */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  export default class S3rver {
    constructor(options: { address?: string; port?: number; directory: string; silent?: boolean });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
