import { z } from 'zod';
import { workspaceTypes } from './enums.ts';

/** A trader's personal workspace (SPEC §3): a named set of assets and rings of one market, of type gas, energy or gas-bg. */
export const workspaceSchema = z.strictObject({
  id: z.string(),
  name: z.string().trim().min(1).max(80),
  type: z.enum(workspaceTypes),
  marketId: z.string(),
  assetIds: z.array(z.string()).max(200),
  ringIds: z.array(z.string()).max(50),
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const workspaceInputSchema = workspaceSchema.omit({ id: true });
export type WorkspaceInput = z.infer<typeof workspaceInputSchema>;

/** Body of a STOMP SEND to /app/chat. */
export const chatSendSchema = z.strictObject({ to: z.string().min(1).max(64), text: z.string().trim().min(1).max(2000) });
export type ChatSend = z.infer<typeof chatSendSchema>;
