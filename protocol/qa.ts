/**
 * QA replay (issue 16): the recorded sessions the server offers to the QA player (fixtures/sessions/),
 * for the qa role and the administrator.
 */
import { z } from 'zod';

/** A recording's name: the file's name without `.jsonl`. */
export const recordingNameSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,79}$/);

export const recordingListSchema = z.strictObject({
  recordings: z.array(z.strictObject({ name: recordingNameSchema, sizeBytes: z.number().int().nonnegative() })),
});
export type RecordingList = z.infer<typeof recordingListSchema>;

/** The roles that may replay recordings in the browser. */
export const replayRoles = ['qa', 'administrator'] as const;

export function canReplay(user: { roles: readonly string[] } | null | undefined): boolean {
  return !!user && user.roles.some((role) => (replayRoles as readonly string[]).includes(role));
}
