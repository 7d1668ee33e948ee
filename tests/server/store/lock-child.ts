// Child process of the data-directory lock tests (argv: dir): tries the lock, prints "locked" or
// "refused <message>", and when locked holds it until killed (or until stdin closes, then releases).
import { DataDirInUseError, lockDataDir } from '../../../server/store/data-dir-lock.ts';

const dir = process.argv[2]!;
try {
  const release = await lockDataDir(dir);
  process.stdout.write('locked\n');
  process.stdin.resume();
  process.stdin.on('end', () => void release().then(() => process.exit(0)));
} catch (error) {
  if (!(error instanceof DataDirInUseError)) throw error;
  process.stdout.write(`refused ${error.message}\n`);
  process.exit(3);
}
