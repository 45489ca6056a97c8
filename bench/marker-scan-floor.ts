import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The floor of issue 15's marker scan: minimal pages that do nothing with the picked files but
 * read bytes 128-131 of each (`file.slice(128, 132)`) and count those that hold DICM, timed from
 * their change event to the last read. What they cost is Chromium's read path; the upload page
 * is measured against the fastest of them that keeps every main-thread task under 50 ms.
 */
export const FLOOR_PAGES = {
  'main-64': '64 reads in flight on the main thread',
  'main-64-yielding': 'the same, waiting for the pick to settle and yielding every 8 ms',
  'worker-64': 'the files posted to a worker at once, 64 reads in flight there',
  'worker-batched': 'the same, posted in batches sized to 8 ms posts, 2 batches in flight, after the pick settled',
  'all-at-once': 'all reads started at once on the main thread',
} as const;
export type FloorPage = keyof typeof FLOOR_PAGES;

/** What every page (floor or upload page) records, read back by the bench. */
export type PageLog = { tasks: Array<[number, number]>; changeAt: number | null; doneAt: number | null; dicom: number | null };

/** One read and its verdict; shared by the main-thread pages and the worker. */
const READ_ONE = `
const isDicom = async (file) => {
  const bytes = new Uint8Array(await file.slice(128, 132).arrayBuffer());
  return bytes.length === 4 && bytes[0] === 0x44 && bytes[1] === 0x49 && bytes[2] === 0x43 && bytes[3] === 0x4d;
};
const inFlight = async (files, count, beforeEach) => {
  let next = 0;
  let dicom = 0;
  await Promise.all(Array.from({ length: Math.min(count, files.length) }, async () => {
    while (next < files.length) {
      if (beforeEach) await beforeEach();
      if (await isDicom(files[next++])) dicom++;
    }
  }));
  return dicom;
};`;

const WORKER = `${READ_ONE}
onmessage = async ({ data }) => postMessage(await inFlight(data, 64));`;

/** The page's strategies, by name; each resolves with the number of files with DICM. */
const STRATEGIES = `
// Chromium is still busy with a big pick after the change event: the first slice or post would
// block until it is done, while reading one file's first bytes waits for the same without blocking.
const settled = async (file) => {
  const reader = file.stream().getReader();
  await reader.read().catch(() => {});
  reader.cancel().catch(() => {});
};
const strategies = {
  'main-64': (files) => inFlight(files, 64),
  'main-64-yielding': async (files) => {
    await settled(files[0]);
    let taskStart = performance.now();
    return inFlight(files, 64, async () => {
      if (performance.now() - taskStart < 8) return;
      await scheduler.yield();
      taskStart = performance.now();
    });
  },
  'worker-64': (files) => {
    const worker = new Worker('/floor-worker.js');
    const answer = new Promise((resolve) => (worker.onmessage = ({ data }) => { worker.terminate(); resolve(data); }));
    worker.postMessage(Array.from(files));
    return answer;
  },
  'worker-batched': async (files) => {
    await settled(files[0]);
    const worker = new Worker('/floor-worker.js');
    let dicom = 0;
    let pending = 0;
    let answered = () => {};
    worker.onmessage = ({ data }) => { dicom += data; pending--; answered(); };
    const answer = () => new Promise((resolve) => (answered = resolve));
    let size = 1;
    for (let start = 0; start < files.length; ) {
      while (pending >= 2) await answer();
      await scheduler.yield();
      const batch = Array.prototype.slice.call(files, start, start + size);
      start += batch.length;
      const postedAt = performance.now();
      worker.postMessage(batch);
      pending++;
      const postMs = Math.max(performance.now() - postedAt, 0.1);
      size = Math.max(1, Math.min(1000, size * 4, Math.round((batch.length * 8) / postMs)));
    }
    while (pending > 0) await answer();
    worker.terminate();
    return dicom;
  },
  'all-at-once': async (files) => {
    const verdicts = await Promise.all(Array.from(files, isDicom));
    return verdicts.filter(Boolean).length;
  },
};`;

function pageHtml(name: FloorPage): string {
  return `<!doctype html><html lang="en"><title>${name}</title><input type="file" webkitdirectory aria-label="folder">
<script>
${READ_ONE}
${STRATEGIES}
const log = { tasks: [], changeAt: null, doneAt: null, dicom: null };
window.__pageLog = log;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) log.tasks.push([entry.startTime, entry.duration]);
}).observe({ type: 'longtask' });
window.__scanned = new Promise((resolve) => {
  document.querySelector('input').addEventListener('change', async (event) => {
    log.changeAt = performance.now();
    log.dicom = await strategies[${JSON.stringify(name)}](event.target.files);
    log.doneAt = performance.now();
    resolve();
  });
});
</script></html>`;
}

/** Serves /floor/<page> and the worker's script on 127.0.0.1; `close` when done. */
export async function startFloorServer(): Promise<{ url: (page: FloorPage) => string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const name = req.url?.replace(/^\/floor\//, '') as FloorPage;
    if (req.url === '/floor-worker.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(WORKER);
    } else if (name in FLOOR_PAGES) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(name));
    } else {
      res.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: (page) => `http://127.0.0.1:${port}/floor/${page}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
