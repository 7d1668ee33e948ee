import { currentCode } from '../../server/auth/totp.ts';
import { demoUser, type TestServer } from './test-server.ts';

/**
 * The roles of the workflow role matrices (issue 15 "Reliability and security"), each a signed-in user
 * of a test server. Around a transaction or request between RO-HIDRO (AG-NORD) and RO-TERMO (AG-CARP):
 *  - participant: broker1, acting for RO-HIDRO;
 *  - counterparty: broker2, acting for RO-TERMO;
 *  - sameAgencyBroker: a broker of AG-NORD holding RO-GAZEST but not RO-HIDRO (made here);
 *  - otherAgencyBroker: sim-nord, of the simulator's agency;
 *  - client: client1, the client user of RO-HIDRO;
 *  - terminal: a terminal of AG-NORD holding RO-HIDRO, read only (made here; the demo's holds RO-GAZEST);
 *  - administrator: admin.
 */
export const workflowPrincipals = ['participant', 'counterparty', 'sameAgencyBroker', 'otherAgencyBroker', 'client', 'terminal', 'administrator'] as const;
export type WorkflowPrincipal = (typeof workflowPrincipals)[number];

const demoUsernames: Partial<Record<WorkflowPrincipal, string>> = {
  participant: 'broker1',
  counterparty: 'broker2',
  otherAgencyBroker: 'sim-nord',
  client: 'client1',
  administrator: 'admin',
};

/** Users made for the matrix: copies of a demo user (its password and code secret) with other rights. */
const madeUsers: Partial<Record<WorkflowPrincipal, { username: string; from: string; roles: string[]; scopes: string[]; clientCodes: string[]; brokerId: string | null; terminalId: string | null }>> = {
  sameAgencyBroker: { username: 'broker-nord-3', from: 'broker1', roles: ['broker'], scopes: ['trading:read', 'trading:write'], clientCodes: ['RO-GAZEST'], brokerId: 'BR-NORD-2', terminalId: null },
  terminal: { username: 'terminal-hidro', from: 'terminal1', roles: ['terminal'], scopes: ['trading:read'], clientCodes: ['RO-HIDRO'], brokerId: 'BR-NORD-2', terminalId: 'T-NORD-02' },
};

/** Creates the matrix's own users and signs every principal in; the tokens by principal. */
export async function signInWorkflowPrincipals(t: TestServer): Promise<Record<WorkflowPrincipal, string>> {
  const tokens = {} as Record<WorkflowPrincipal, string>;
  for (const principal of workflowPrincipals) {
    const demo = demoUsernames[principal];
    if (demo) {
      tokens[principal] = await t.login(demo);
      continue;
    }
    const made = madeUsers[principal]!;
    const template = await t.server.store.users.findByUsername(made.from);
    if (!template) throw new Error(`no user ${made.from}`);
    if (!(await t.server.store.users.findByUsername(made.username))) {
      const { credentialsVersion: _version, ...fields } = template;
      await t.server.store.users.insert({
        ...fields,
        id: `U-${made.username}`,
        username: made.username,
        name: made.username,
        roles: made.roles,
        scopes: made.scopes,
        clientCodes: made.clientCodes,
        brokerId: made.brokerId,
        terminalId: made.terminalId,
        lastTotpStep: 0,
      });
    }
    t.clock.nextTotpStep();
    const answer = await t.post('/login', { username: made.username, password: demoUser(made.from).password, code: currentCode(template.totpSecret, t.clock.now()) });
    if (answer.status !== 200) throw new Error(`login ${made.username} failed: ${JSON.stringify(answer.body)}`);
    tokens[principal] = answer.body.token as string;
  }
  return tokens;
}

/** A cell's expected answer: a status, and the code when it is a refusal. */
export type Cell = readonly [number] | readonly [number, string];
