/** The environment the server reads: the token lifetime (TOKEN_TTL_SECONDS) and the connection cap (MAX_CONNECTIONS_PER_ADDRESS). */
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config.ts';

describe('configFromEnv', () => {
  it('gives tokens 1800 s unless TOKEN_TTL_SECONDS says otherwise', () => {
    expect(configFromEnv({}).tokenTtlSeconds).toBe(1800);
    expect(configFromEnv({ TOKEN_TTL_SECONDS: '' }).tokenTtlSeconds).toBe(1800);
    expect(configFromEnv({ TOKEN_TTL_SECONDS: '150' }).tokenTtlSeconds).toBe(150);
  });

  it('refuses a token lifetime that is not a whole number from 10 to 1800 s', () => {
    for (const value of ['9', '1801', '1.5', 'soon', '-150']) {
      expect(() => configFromEnv({ TOKEN_TTL_SECONDS: value })).toThrow(/TOKEN_TTL_SECONDS/);
    }
  });

  it('caps STOMP sessions per user at 100 unless MAX_SESSIONS_PER_USER says otherwise (0: no cap)', () => {
    expect(configFromEnv({}).maxSessionsPerUser).toBe(100);
    expect(configFromEnv({ MAX_SESSIONS_PER_USER: '0' }).maxSessionsPerUser).toBe(0);
    expect(configFromEnv({ MAX_SESSIONS_PER_USER: '500' }).maxSessionsPerUser).toBe(500);
    for (const value of ['-1', '2.5', 'lots']) expect(() => configFromEnv({ MAX_SESSIONS_PER_USER: value })).toThrow(/MAX_SESSIONS_PER_USER/);
  });

  it('caps open sockets per address at 256 unless MAX_CONNECTIONS_PER_ADDRESS says otherwise (0: no cap)', () => {
    expect(configFromEnv({}).maxConnectionsPerAddress).toBe(256);
    expect(configFromEnv({ MAX_CONNECTIONS_PER_ADDRESS: '0' }).maxConnectionsPerAddress).toBe(0);
    expect(configFromEnv({ MAX_CONNECTIONS_PER_ADDRESS: '4096' }).maxConnectionsPerAddress).toBe(4096);
    for (const value of ['-1', '1.5', 'many']) {
      expect(() => configFromEnv({ MAX_CONNECTIONS_PER_ADDRESS: value })).toThrow(/MAX_CONNECTIONS_PER_ADDRESS/);
    }
  });
});
