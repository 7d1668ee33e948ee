/**
 * Publishes a stored workflow transition: a WorkflowChange on `/user/queue/workflows` to every user
 * holding either side's client (terminals included: they see the instance), on
 * `/user/queue/workflow-approvals` to the administrators, and a notification (`notifications.workflow`)
 * on `/user/queue/notifications` to those the transition concerns: the participants' users other than
 * the one who acted, and the administrators when the instance now waits on them. The audience is read
 * at each publish (users change rarely; a workflow transition is rare too).
 */
import { destinations, type Notification } from '../../protocol/index.ts';
import type { WorkflowChange, WorkflowInstance } from '../../protocol/workflows.ts';
import type { StompGateway } from '../gateway/stomp-gateway.ts';
import type { Queryable } from '../store/database.ts';
import { notificationMessageKeys } from '../trading/notifications.ts';
import type { WorkflowChangeSink, WorkflowUser } from './workflow-runner.ts';

interface AudienceRow {
  id: string;
  roles: string[];
  client_codes: string[];
}

export class WorkflowPublisher implements WorkflowChangeSink {
  private seq = 0;
  private readonly prefix = `wf-${Date.now().toString(36)}`;

  constructor(
    private readonly gateway: Pick<StompGateway, 'sendToUser'>,
    private readonly db: Queryable,
  ) {}

  async publish(instance: WorkflowInstance, actor: WorkflowUser): Promise<void> {
    const event = instance.history[instance.history.length - 1];
    if (!event) return;
    const users = await this.db.query<AudienceRow>('select id, roles, client_codes from users order by id');
    const sides = [instance.initiatorClient, instance.partnerClient];
    const participants = users.filter((user) => !user.roles.includes('administrator') && user.client_codes.some((code) => sides.includes(code))).map((user) => user.id);
    const administrators = users.filter((user) => user.roles.includes('administrator')).map((user) => user.id);
    const change: WorkflowChange = { instance, event };
    for (const userId of participants) this.gateway.sendToUser(userId, destinations.workflows, change);
    for (const userId of administrators) this.gateway.sendToUser(userId, destinations.workflowApprovals, change);

    const told = new Set(participants.filter((userId) => userId !== actor.userId));
    if (instance.waitingOn === 'administrator') for (const userId of administrators) if (userId !== actor.userId) told.add(userId);
    if (told.size === 0) return;
    const notification: Notification = {
      id: `${this.prefix}-${++this.seq}`,
      kind: 'workflow',
      messageKey: notificationMessageKeys.workflow,
      values: {
        workflow: instance.kind,
        instanceId: instance.instanceId,
        // The number users know the item by (the web app names it so); '' for a whitelist request or a deal not yet a transaction.
        transactionId: instance.kind === 'whitelist' ? '' : (instance.data.transactionId ?? ''),
        action: event.action,
        status: instance.status,
        initiatorClient: instance.initiatorClient,
        partnerClient: instance.partnerClient,
        reason: instance.reason?.code ?? instance.reason?.text ?? '',
      },
      at: event.at,
    };
    for (const userId of told) this.gateway.sendToUser(userId, destinations.notifications, notification);
  }
}
