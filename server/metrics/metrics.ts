import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RequestHandler, Response } from 'express';
import { schemaOf, type Db } from '../db';
import { routeOf } from '../lib/logger';

const requestStart = Symbol('request start');

/** How an upload reached the portal, from the route that received it. */
const UPLOAD_ROUTES: Record<string, 'multipart' | 'resumable' | 'stow'> = {
  'POST /api/dicom': 'multipart',
  'POST /api/dicom/uploads': 'resumable',
  'PATCH /api/dicom/uploads/:id': 'resumable',
  'POST /api/provider/v1/dicomweb/studies': 'stow',
};

export type Metrics = {
  registry: Registry;
  /** Times every request and counts the bytes of uploads; mounted first. */
  observeRequests: RequestHandler;
  paymentNotification(outcome: string): void;
};

/**
 * The process's figures in Prometheus form (`GET /metrics`, metrics/routes.ts). Request counts and
 * times, upload bytes and payment notification outcomes are this process's own (Prometheus adds
 * the processes up); the job queue and the outbox are read from the shared database at each scrape,
 * so every process reports the same backlog. Labels are route patterns and fixed words only:
 * never an id, a path or anything a patient typed.
 */
export function createMetrics({ db }: { db: Db }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'portal_' });

  const requests = new Counter({
    name: 'portal_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const uploadBytes = new Counter({
    name: 'portal_upload_bytes_total',
    help: 'Bytes of DICOM upload requests received (bodies and their headers), by way (multipart, resumable, stow)',
    labelNames: ['way'] as const,
    registers: [registry],
  });
  const paymentNotifications = new Counter({
    name: 'portal_payment_notifications_total',
    help: "The payment provider's notifications, by outcome (applied, replay, stale, refused_*, unknown_order ...)",
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  registerBacklogGauges(registry, db);
  // What each connection had read when its last answer ended: the next request's bytes start there.
  const readAtLastAnswer = new WeakMap<object, number>();
  // One listener for every response (`this` is the response), not a closure per request; `on`,
  // not `once`: a response closes once, and `once` would wrap the listener for every request.
  function observeAnswered(this: Response & { [requestStart]?: number }) {
    const { req } = this;
    const socket = req.socket;
    // HTTP/1.1 sends one request at a time on a connection, so what the socket read since the
    // last answer is this request: its headers and its body, as much as was received.
    const received = socket.bytesRead - (readAtLastAnswer.get(socket) ?? 0);
    readAtLastAnswer.set(socket, socket.bytesRead);
    const route = routeOf(req, this);
    if (route === '/metrics') return;
    const method = req.method;
    requests.inc({ method, route, status: `${Math.floor(this.statusCode / 100)}xx` });
    latency.observe({ method, route }, (performance.now() - (this[requestStart] ?? 0)) / 1000);
    const way = UPLOAD_ROUTES[`${method} ${route}`];
    if (way) uploadBytes.inc({ way }, Math.max(0, received));
  }

  return {
    registry,
    observeRequests: (_req, res, next) => {
      (res as Response & { [requestStart]?: number })[requestStart] = performance.now();
      res.on('close', observeAnswered);
      next();
    },
    paymentNotification: (outcome) => paymentNotifications.inc({ outcome }),
  };
}

/** Read from the database when Prometheus scrapes: the same for every process, so no process owns them. */
function registerBacklogGauges(registry: Registry, db: Db): void {
  const queueSchema = schemaOf(db) ?? 'pgboss';
  const gauge = (name: string, help: string, labelNames: string[], sql: string, bindings: string[] = []) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      // Each row is one sample: its `value`, labelled by its other columns.
      async collect() {
        this.reset();
        const { rows } = await db.raw<{ rows: Record<string, string>[] }>(sql, bindings);
        for (const { value, ...labels } of rows) this.set(labels, Number(value));
      },
    });
  gauge(
    'portal_job_queue_depth',
    'Background jobs waiting (due, not started) and running, by queue',
    ['queue', 'state'],
    `SELECT name AS queue, CASE WHEN state = 'active' THEN 'running' ELSE 'waiting' END AS state, count(*) AS value
       FROM ??.job WHERE state = 'active' OR (state IN ('created', 'retry') AND start_after <= now())
      GROUP BY 1, 2`,
    [queueSchema],
  );
  gauge(
    'portal_job_queue_oldest_waiting_seconds',
    'Age of the oldest background job that is due and not started, by queue',
    ['queue'],
    `SELECT name AS queue, extract(epoch FROM now() - min(start_after)) AS value
       FROM ??.job WHERE state IN ('created', 'retry') AND start_after <= now()
      GROUP BY name`,
    [queueSchema],
  );
  gauge(
    'portal_outbox_unsent',
    'Mail and SMS kept in the outbox and not sent yet, by channel',
    ['channel'],
    `SELECT channel, count(*) AS value FROM outbox_messages WHERE sent_at IS NULL GROUP BY channel`,
  );
  gauge(
    'portal_outbox_oldest_unsent_seconds',
    'Age of the oldest unsent mail or SMS in the outbox, by channel',
    ['channel'],
    `SELECT channel, extract(epoch FROM now() - min(created_at)) AS value FROM outbox_messages WHERE sent_at IS NULL GROUP BY channel`,
  );
}
