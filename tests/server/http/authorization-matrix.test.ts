import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinationCases, principalNames, routeCases, runAuthorizationMatrix, runDestinationMatrix, uncoveredRoutes, type MatrixCell } from '../../helpers/authorization-matrix.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

describe('authorisation matrix: every route × every role', () => {
  let t: TestServer;
  let cells: MatrixCell[];
  beforeAll(async () => {
    t = await startTestServer();
    cells = await runAuthorizationMatrix(t);
  }, 120_000);
  afterAll(async () => {
    await t?.server.close();
  });

  it('has a case for every route the app registered', () => {
    expect(uncoveredRoutes(t)).toEqual([]);
  });

  it('answers each cell as the roles, clients, agencies and markets of the demo users say, and leaks nothing of another user', () => {
    expect(cells).toHaveLength(routeCases.length * principalNames.length);
    const wrong = cells.filter((cell) => !cell.ok).map((cell) => `${cell.route} as ${cell.principal}: expected ${cell.expected}, got ${cell.actual}`);
    console.log(`authorization-matrix routes=${routeCases.length} roles=${principalNames.length} cells=${cells.length} wrong=${wrong.length}`);
    expect(wrong).toEqual([]);
  });

  it('every STOMP destination × every signed-in role: topics of the user\'s markets only, private queues for all', async () => {
    const destinationCells = await runDestinationMatrix(t);
    const forbidden = destinationCells.filter((cell) => cell.expected !== 'RECEIPT').length;
    const wrong = destinationCells.filter((cell) => !cell.ok).map((cell) => `${cell.route} as ${cell.principal}: expected ${cell.expected}, got ${cell.actual}`);
    console.log(`destination-matrix destinations=${destinationCases().length} roles=${principalNames.length - 1} cells=${destinationCells.length} forbidden=${forbidden} wrong=${wrong.length}`);
    expect(destinationCells).toHaveLength(destinationCases().length * (principalNames.length - 1));
    // Both answers occur: the matrix is not all allowed or all refused.
    expect(forbidden).toBeGreaterThan(0);
    expect(forbidden).toBeLessThan(destinationCells.length);
    expect(wrong).toEqual([]);
  }, 60_000);
});
