import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '../../protocol/error-codes.ts';

/**
 * Every code of the catalogue is raised by server code: a code nobody raises is a message the client
 * can never show, or a refusal someone forgot to write. "Raised" here: the code appears as a string
 * literal in the server's sources, outside comments (protocol/ defines them, tests/ only expect them,
 * src/ only translates them).
 */
const root = new URL('../../', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The file without its comments (block, JSDoc and line comments; a `//` inside a string survives). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

describe('the error catalogue', () => {
  it('has every code raised somewhere in server/', () => {
    const server = sourceFiles('server').map((file) => withoutComments(readFileSync(join(root, file), 'utf8'))).join('\n');
    const literals = new Set([...server.matchAll(/['"`]([A-Z][A-Z0-9_]+)['"`]/g)].map((match) => match[1]));
    const neverRaised = errorCodes.filter((code) => !literals.has(code));
    expect(neverRaised).toEqual([]);
  });

  it('notices a code that is only mentioned in a comment', () => {
    expect(withoutComments("// raise 'SERVICE_UNAVAILABLE' here\nconst x = 1;")).not.toContain('SERVICE_UNAVAILABLE');
    expect(withoutComments("/** 'STOMP_SLOW_CONSUMER' */ const y = 'NOT_FOUND';")).not.toContain('STOMP_SLOW_CONSUMER');
    expect(withoutComments("const path = 'http://x'; const c = 'NOT_FOUND';")).toContain("'NOT_FOUND'");
  });
});
