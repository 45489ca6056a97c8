import { randomUUID } from 'node:crypto';
import { UsageError, type Command, type CommandContext } from '../command';
import { PORTAL_URL_OPTION, ProviderHttp } from '../provider-http';

type Order = {
  id: number;
  number: string;
  kind: string;
  status: string;
  shipmentStatus: string;
  trackingNumber: string | null;
  done: boolean;
  createdAt: string;
  delivery: { docReceiver: 0 | 1 | 2; address: { city: string; postalCode: string } | null } | null;
};
type Slot = { id: number; radiologistName: string; startsAt: string; durationMinutes: number; heldByOrderId: number | null };

function printTable(context: CommandContext, header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  context.stdout.write(`${[line(header), ...rows.map(line)].join('\n')}\n`);
}

function positiveInteger(value: string, what: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${what} must be a positive whole number, not '${value}'`);
  return Number(value);
}

const ordersList: Command = {
  path: ['orders', 'list'],
  summary: 'List orders to fulfil (paid copies awaiting shipment by default)',
  options: {
    ...PORTAL_URL_OPTION,
    shipment: { type: 'string', value: 'status', description: 'shipment status: awaiting (default), prepared, sent, delivered, collected' },
    all: { type: 'boolean', description: 'every order, whatever its payment and shipment' },
  },
  examples: ['orders list', 'orders list --shipment sent'],
  async run({ options }, context) {
    const http = ProviderHttp.from(options, context);
    const query = options.all
      ? new URLSearchParams()
      : new URLSearchParams({ status: 'paid', kind: 'copy', shipment: String(options.shipment ?? 'awaiting') });
    const orders: Order[] = [];
    for (let after: number | null = 0; after !== null;) {
      if (after > 0) query.set('after', String(after));
      const page = (await http.expect('GET', `/orders?${query}`)).body as { orders: Order[]; nextAfter: number | null };
      orders.push(...page.orders);
      after = page.nextAfter;
    }
    if (orders.length === 0) {
      context.stdout.write('No orders.\n');
      return;
    }
    printTable(
      context,
      ['ID', 'NUMBER', 'KIND', 'PAYMENT', 'SHIPMENT', 'TRACKING', 'DONE', 'SHIP TO'],
      orders.map((order) => [
        String(order.id),
        order.number,
        order.kind,
        order.status,
        order.shipmentStatus,
        order.trackingNumber ?? '',
        order.done ? 'yes' : 'no',
        order.delivery?.address ? `${order.delivery.address.postalCode} ${order.delivery.address.city}` : order.delivery ? 'picked up' : '',
      ]),
    );
  },
};

const ordersShip: Command = {
  path: ['orders', 'ship'],
  summary: "Set a copy order's shipment status (the patient gets a short notice)",
  args: [{ name: 'order', description: "the portal's order id" }],
  options: {
    ...PORTAL_URL_OPTION,
    status: { type: 'string', required: true, value: 'status', description: 'awaiting, prepared, sent, delivered or collected' },
    tracking: { type: 'string', value: 'number', description: "the carrier's tracking number (with --status sent)" },
    done: { type: 'boolean', description: 'end the order (the default once delivered or collected)' },
  },
  examples: ['orders ship 42 --status sent --tracking PX123456789PL', 'orders ship 42 --status collected'],
  async run({ args, options }, context) {
    const id = positiveInteger(args[0]!, '<order>');
    const http = ProviderHttp.from(options, context);
    const body = {
      shipmentStatus: String(options.status),
      ...(options.tracking !== undefined && { trackingNumber: String(options.tracking) }),
      ...(options.done === true && { done: true }),
    };
    const order = (await http.expect('PATCH', `/orders/${id}/shipment`, { json: body })).body as Order;
    context.stdout.write(
      `Order ${order.number}: ${order.shipmentStatus}${order.trackingNumber ? ` (${order.trackingNumber})` : ''}${order.done ? ', done' : ''}\n`,
    );
  },
};

const refund: Command = {
  path: ['refund'],
  summary: 'Refund a paid order through the payment provider',
  args: [{ name: 'order', description: "the portal's order id" }],
  options: {
    ...PORTAL_URL_OPTION,
    reason: { type: 'string', required: true, value: 'text', description: "shown to the payment provider as the refund's description" },
    amount: { type: 'string', value: 'grosze', description: 'part of the payment, in grosze; default: what is left of it' },
  },
  examples: ['refund 42 --reason "Copy could not be made"', 'refund 42 --amount 1500 --reason "Postage returned"'],
  async run({ args, options }, context) {
    const id = positiveInteger(args[0]!, '<order>');
    const http = ProviderHttp.from(options, context);
    const body = {
      reason: String(options.reason),
      ...(options.amount !== undefined && { amountGrosze: positiveInteger(String(options.amount), '--amount') }),
    };
    // One key for this command's retries: a lost answer never refunds twice.
    const answer = await http.expect('POST', `/orders/${id}/refund`, { json: body }, { 'Idempotency-Key': `cli-refund:${randomUUID()}` });
    const { order, refund: made } = answer.body as { order: Order; refund: { refundId: string; status: string; full: boolean } };
    context.stdout.write(
      `Order ${order.number}: refund ${made.refundId} ${made.status}${made.full ? ' (the whole payment; the order is done)' : ''}\n`,
    );
  },
};

const slotsPublish: Command = {
  path: ['slots', 'publish'],
  summary: 'Publish consultation slots of a radiologist (again is harmless)',
  options: {
    ...PORTAL_URL_OPTION,
    radiologist: { type: 'string', required: true, value: 'name', description: "the radiologist's name as patients see it" },
    at: {
      type: 'string',
      multiple: true,
      required: true,
      value: 'ISO date-time',
      description: 'a slot start with its offset, e.g. 2026-12-01T09:00:00+01:00',
    },
    duration: { type: 'string', value: 'minutes', description: 'length of each slot; default 20' },
  },
  examples: ['slots publish --radiologist "lek. med. Anna Kowalska" --at 2026-12-01T09:00:00+01:00 --at 2026-12-01T09:20:00+01:00'],
  async run({ options }, context) {
    const http = ProviderHttp.from(options, context);
    const durationMinutes = options.duration === undefined ? undefined : positiveInteger(String(options.duration), '--duration');
    for (const startsAt of options.at as string[]) {
      const answer = await http.expect('PUT', '/consultation-slots', {
        json: { radiologistName: String(options.radiologist), startsAt, ...(durationMinutes && { durationMinutes }) },
      });
      const slot = answer.body as Slot;
      context.stdout.write(`${answer.status === 201 ? 'published' : 'already there'}: slot ${slot.id} at ${slot.startsAt}\n`);
    }
  },
};

const slotsList: Command = {
  path: ['slots', 'list'],
  summary: 'List consultation slots from now on',
  options: { ...PORTAL_URL_OPTION },
  async run({ options }, context) {
    const http = ProviderHttp.from(options, context);
    const query = new URLSearchParams({ from: new Date(context.clock()).toISOString() });
    const { slots } = (await http.expect('GET', `/consultation-slots?${query}`)).body as { slots: Slot[] };
    if (slots.length === 0) {
      context.stdout.write('No slots.\n');
      return;
    }
    printTable(
      context,
      ['ID', 'STARTS (UTC)', 'MINUTES', 'RADIOLOGIST', 'HELD BY ORDER'],
      slots.map((slot) => [
        String(slot.id),
        slot.startsAt,
        String(slot.durationMinutes),
        slot.radiologistName,
        slot.heldByOrderId ? String(slot.heldByOrderId) : '',
      ]),
    );
  },
};

export const fulfilmentCommands: Command[] = [ordersList, ordersShip, refund, slotsPublish, slotsList];
