// Prints a demo user's current verification code: npm run demo:code -- <username>
import { currentCode, TOTP_PERIOD_SECONDS } from '../auth/totp.ts';
import { readDemoUsers } from './demo-exchange.ts';

const username = process.argv[2];
const users = readDemoUsers();
const user = users.find((candidate) => candidate.username === username);
if (!user) {
  console.error(`Usage: npm run demo:code -- <username>\nDemo users: ${users.map((candidate) => candidate.username).join(', ')}`);
  process.exit(2);
}
const now = Date.now();
const secondsLeft = TOTP_PERIOD_SECONDS - Math.floor(now / 1000) % TOTP_PERIOD_SECONDS;
console.log(currentCode(user.totpSecret, now));
console.error(`(${user.username}: valid for ${secondsLeft} s more; each code signs in once)`);
