import { describe, expect, it } from 'vitest';
import { admitPicked, totalBytes } from './selection';

const picked = (path: string, size: number, lastModified = 1) => ({ file: new File([], path.split('/').pop()!), path, size, lastModified });

describe('admitPicked', () => {
  it('leaves out files over the per-file limit and counts them, and files already on the list or picked twice', () => {
    const first = admitPicked([picked('a/1', 10), picked('a/2', 500)], [], { maxFileBytes: 100 });
    expect(first.candidates.map((file) => file.path)).toEqual(['a/1']);
    expect(first.tooLarge).toBe(1);

    const again = admitPicked([picked('a/1', 10), picked('a/3', 10), picked('a/3', 10), picked('a/1', 10, 2)], first.candidates, {
      maxFileBytes: 100,
    });
    // a/1 with another modification time is another file that happens to have the same path.
    expect(again.candidates.map((file) => file.path)).toEqual(['a/3', 'a/1']);
    expect(again.tooLarge).toBe(0);
  });

  it('adds up the sizes the worker read, never asking the files', () => {
    const { candidates } = admitPicked([picked('a/1', 10), picked('a/2', 32)], [], { maxFileBytes: 100 });
    expect(totalBytes(candidates)).toBe(42);
  });
});
