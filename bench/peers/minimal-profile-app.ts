import { randomBytes } from 'node:crypto';
import connectPgSimple from 'connect-pg-simple';
import express from 'express';
import session from 'express-session';
import pg from 'pg';

/**
 * The API peer of `npm run bench` (issue 16): the least an Express 5 app needs to answer a
 * signed-in profile call the way the portal does, with nothing else: express-session over
 * connect-pg-simple, then one row read from PostgreSQL. Runs as its own process, on its own
 * schema of BENCH_DATABASE_URL (PEER_SCHEMA), listening on PEER_PORT; prints "ready" when it
 * serves. GET /login starts a session for user 1; GET /profile reads her row.
 */
const url = process.env.BENCH_DATABASE_URL!;
const schema = process.env.PEER_SCHEMA ?? `bench_peer_${randomBytes(4).toString('hex')}`;
const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}` });

const setup = await pool.connect();
try {
  await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await setup.query(`SET search_path = ${schema}`);
  // connect-pg-simple's own table, as its README gives it.
  await setup.query(`CREATE TABLE IF NOT EXISTS session (sid varchar PRIMARY KEY, sess json NOT NULL, expire timestamp(6) NOT NULL)`);
  await setup.query(
    `CREATE TABLE IF NOT EXISTS users (id int PRIMARY KEY, email text, first_name text, last_name text, birth_at date, pesel text, phone text)`,
  );
  await setup.query(
    `INSERT INTO users VALUES (1, 'anna.nowak@example.com', 'Anna', 'Nowak', '1970-05-06', '70050612345', '+48600100200') ON CONFLICT DO NOTHING`,
  );
} finally {
  setup.release();
}

const PgStore = connectPgSimple(session);
const app = express();
app.use(
  session({
    // No write per read, as the portal's store: the fair, harder peer. PEER_TOUCH=1 keeps
    // connect-pg-simple's default, which updates the session's expiry on every request.
    store: new PgStore({ pool, tableName: 'session', schemaName: schema, disableTouch: process.env.PEER_TOUCH !== '1' }),
    secret: 'bench-peer-secret-0123456789abcdef0123456789',
    resave: false,
    saveUninitialized: false,
    cookie: { httpOnly: true, sameSite: 'lax' },
  }),
);
app.get('/login', (req, res) => {
  (req.session as unknown as { userId: number }).userId = 1;
  res.json({ ok: true });
});
app.get('/profile', async (req, res) => {
  const userId = (req.session as unknown as { userId?: number }).userId;
  if (!userId) {
    res.status(401).json({ code: 'UNAUTHENTICATED' });
    return;
  }
  const { rows } = await pool.query('SELECT id, email, first_name, last_name, birth_at, pesel, phone FROM users WHERE id = $1', [userId]);
  res.json(rows[0]);
});

const server = app.listen(Number(process.env.PEER_PORT ?? 0), '127.0.0.1', () => console.log('ready'));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  // The schema goes once no request can still read it (a handler cut off mid-query finishes first).
  server.close(() => {
    void new Promise((resolve) => setTimeout(resolve, 500))
      .then(() => pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))
      .finally(() => pool.end())
      .finally(() => process.exit(0));
  });
});
