// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditItem } from '@common/audit';
import { startEnglish } from '../../testing/session';
import { AuditTable } from './AuditTable';

const ITEMS: AuditItem[] = [
  { createdAt: '2024-03-12T10:00:00Z', type: 'DICOM_UPLOAD', ip: '192.0.2.10', description: 'stored 1, duplicates 0, refused 0' },
  { createdAt: '2024-03-11T10:00:00Z', type: 'RESULT', ip: null, description: 'screening 5' },
];

beforeAll(startEnglish);
afterEach(cleanup);

describe('AuditTable', () => {
  it("shows the type's name and the IP as the description, never the stored note, each value named by its column", async () => {
    render(<AuditTable items={ITEMS} busy={false} />);
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3));
    const [upload, result] = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('gridcell'));
    expect(upload!.map((cell) => cell.textContent)).toEqual(['DICOM images uploaded', 'DICOM images uploaded, IP 192.0.2.10']);
    expect(result!.map((cell) => cell.textContent)).toEqual(['Result viewed', 'Result viewed']);
    expect(upload!.map((cell) => cell.dataset.label)).toEqual(['Type', 'Description']);
  });
});
