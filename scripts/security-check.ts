// The attack suite: runs every attack of scripts/security/*.attacks.ts against a real server and prints
// a table of attempts and outcomes. Exit code 1 when any attack was not held. docs/reliability.md.
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestServer } from '../tests/helpers/test-server.ts';
import type { Attack } from './security/attack.ts';

const folder = fileURLToPath(new URL('./security/', import.meta.url));
const only = process.argv[2]; // optional area filter: npm run security:check -- tokens

const attacks: Attack[] = [];
for (const file of readdirSync(folder).filter((name) => name.endsWith('.attacks.ts')).sort()) {
  const module = (await import(pathToFileURL(folder + file).href)) as { attacks: Attack[] };
  attacks.push(...module.attacks.filter((attack) => !only || attack.area === only));
}

const rows: string[][] = [];
let failed = 0;
for (const attack of attacks) {
  // A fresh server per attack: limits, lockouts and sessions of one attempt never colour the next.
  const target = await startTestServer({}, Date.now());
  let held = false;
  let outcome: string;
  try {
    ({ held, outcome } = await attack.run(target));
  } catch (error) {
    outcome = `threw: ${(error as Error).message}`.slice(0, 120);
  } finally {
    await target.server.close();
  }
  if (!held) failed += 1;
  rows.push([attack.area, attack.name, attack.expected, outcome, held ? 'held' : 'FAILED']);
}

const header = ['area', 'attack', 'expected', 'outcome', 'result'];
const widths = header.map((title, column) => Math.min(60, Math.max(title.length, ...rows.map((row) => row[column]!.length))));
const line = (cells: string[]) => cells.map((cell, column) => cell.slice(0, widths[column]).padEnd(widths[column]!)).join(' | ');
console.log(line(header));
console.log(widths.map((width) => '-'.repeat(width)).join('-|-'));
for (const row of rows) console.log(line(row));
console.log(`security:check attempts=${rows.length} held=${rows.length - failed} failed=${failed}`);
process.exit(failed === 0 ? 0 : 1);
