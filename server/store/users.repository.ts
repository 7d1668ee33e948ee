import type { Preferences } from '../../protocol/index.ts';
import type { Queryable } from './database.ts';

export interface UserRecord {
  id: string;
  username: string;
  name: string;
  roles: string[];
  scopes: string[];
  brokerId: string | null;
  agencyId: string | null;
  terminalId: string | null;
  clientCodes: string[];
  marketIds: string[];
  passwordHash: string;
  passwordChangedAt: Date;
  totpSecret: string;
  lastTotpStep: number;
  preferences: Preferences;
  /** Raised by each password change or reset: tokens issued at a lower version are refused. */
  credentialsVersion: number;
}

interface UserRow {
  id: string;
  username: string;
  name: string;
  roles: string[];
  scopes: string[];
  broker_id: string | null;
  agency_id: string | null;
  terminal_id: string | null;
  client_codes: string[];
  market_ids: string[];
  password_hash: string;
  password_changed_at: Date | string;
  totp_secret: string;
  last_totp_step: string | number;
  preferences: Preferences;
  credentials_version: string | number;
}

function toRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    roles: row.roles,
    scopes: row.scopes,
    brokerId: row.broker_id,
    agencyId: row.agency_id,
    terminalId: row.terminal_id,
    clientCodes: row.client_codes,
    marketIds: row.market_ids,
    passwordHash: row.password_hash,
    passwordChangedAt: new Date(row.password_changed_at),
    totpSecret: row.totp_secret,
    lastTotpStep: Number(row.last_totp_step),
    preferences: row.preferences,
    credentialsVersion: Number(row.credentials_version),
  };
}

export class UsersRepository {
  constructor(private readonly db: Queryable) {}

  async findByUsername(username: string): Promise<UserRecord | null> {
    const rows = await this.db.query<UserRow>('select * from users where lower(username) = lower($1)', [username]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async findById(id: string): Promise<UserRecord | null> {
    const rows = await this.db.query<UserRow>('select * from users where id = $1', [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async insert(user: Omit<UserRecord, 'credentialsVersion'>): Promise<void> {
    await this.db.query(
      `insert into users (id, username, name, roles, scopes, broker_id, agency_id, terminal_id, client_codes, market_ids,
        password_hash, password_changed_at, totp_secret, last_totp_step, preferences)
       values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)`,
      [
        user.id, user.username, user.name, JSON.stringify(user.roles), JSON.stringify(user.scopes), user.brokerId, user.agencyId,
        user.terminalId, JSON.stringify(user.clientCodes), JSON.stringify(user.marketIds), user.passwordHash,
        user.passwordChangedAt.toISOString(), user.totpSecret, user.lastTotpStep, JSON.stringify(user.preferences),
      ],
    );
    await this.db.query('insert into password_history (user_id, password_hash, created_at) values ($1, $2, $3)', [
      user.id, user.passwordHash, user.passwordChangedAt.toISOString(),
    ]);
  }

  /**
   * Accepts a TOTP step only if it is newer than the last accepted one; atomic, so two racing
   * sign-ins with the same code cannot both pass.
   */
  async consumeTotpStep(userId: string, step: number): Promise<boolean> {
    const rows = await this.db.query('update users set last_totp_step = $2 where id = $1 and last_totp_step < $2 returning id', [userId, step]);
    return rows.length === 1;
  }

  async passwordHistory(userId: string, limit: number): Promise<string[]> {
    const rows = await this.db.query<{ password_hash: string }>(
      'select password_hash from password_history where user_id = $1 order by created_at desc, id desc limit $2',
      [userId, limit],
    );
    return rows.map((row) => row.password_hash);
  }

  /** Sets the password and raises the credentials version (every earlier token is revoked); returns the new version. */
  async setPassword(userId: string, passwordHash: string, at: Date): Promise<number> {
    const rows = await this.db.query<{ credentials_version: string | number }>(
      'update users set password_hash = $2, password_changed_at = $3, credentials_version = credentials_version + 1 where id = $1 returning credentials_version',
      [userId, passwordHash, at.toISOString()],
    );
    await this.db.query('insert into password_history (user_id, password_hash, created_at) values ($1, $2, $3)', [userId, passwordHash, at.toISOString()]);
    return Number(rows[0]?.credentials_version ?? 0);
  }

  async recordLogin(userId: string, ip: string, at: Date): Promise<void> {
    await this.db.query('insert into login_history (user_id, ip, at) values ($1, $2, $3)', [userId, ip, at.toISOString()]);
  }

  async loginHistory(userId: string, limit: number): Promise<Array<{ id: string; ip: string; timestamp: string }>> {
    const rows = await this.db.query<{ id: string | number; ip: string; at: Date | string }>(
      'select id, ip, at from login_history where user_id = $1 order by at desc, id desc limit $2',
      [userId, limit],
    );
    return rows.map((row) => ({ id: String(row.id), ip: row.ip, timestamp: new Date(row.at).toISOString() }));
  }

  async setPreferences(userId: string, preferences: Preferences): Promise<void> {
    await this.db.query('update users set preferences = $2 where id = $1', [userId, JSON.stringify(preferences)]);
  }

  async count(): Promise<number> {
    const rows = await this.db.query<{ n: number | string }>('select count(*) as n from users');
    return Number(rows[0]?.n ?? 0);
  }
}
