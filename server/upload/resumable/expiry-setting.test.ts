import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';

const ENV = { SESSION_SECRET: 's'.repeat(32), ACCESS_CODE_SECRET: 'a'.repeat(32), DATA_DIR: '/tmp/unused-data-dir' };

describe('UPLOAD_RESUMABLE_EXPIRY_HOURS', () => {
  it('defaults to 24 hours', () => {
    expect(loadConfig(ENV).upload.resumableExpiryHours).toBe(24);
  });

  it('takes whole hours from 1 to 720', () => {
    expect(loadConfig({ ...ENV, UPLOAD_RESUMABLE_EXPIRY_HOURS: '1' }).upload.resumableExpiryHours).toBe(1);
    expect(loadConfig({ ...ENV, UPLOAD_RESUMABLE_EXPIRY_HOURS: '720' }).upload.resumableExpiryHours).toBe(720);
    for (const wrong of ['0', '721', '1.5', 'day']) {
      expect(() => loadConfig({ ...ENV, UPLOAD_RESUMABLE_EXPIRY_HOURS: wrong })).toThrow(ConfigError);
    }
  });
});
