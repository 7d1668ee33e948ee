import { Subject } from 'rxjs';
import type { OrderUpdate } from '../../protocol/market-data.ts';

/**
 * The replies to the user's order calls, with the journal seq their state stands at: the orders API
 * puts them here and the my-orders machine takes them beside the order queue.
 */
export const orderReplies = new Subject<OrderUpdate>();
