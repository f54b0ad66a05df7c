// The messaging routes of the emulated API: text-message threads and conversations.
import type { ThreadRec } from '../records.js';
import { boolParam, dateWindow, inWindow, matches, paging, type RequestContext } from '../request.js';
import { conversationView, lastMessageAt, messageView, tagNames, threadView } from '../views.js';
import { account, companyFilter, owned, pageOf } from './lookups.js';

function threadsOf(ctx: RequestContext, accountId: string): ThreadRec[] {
  const window = dateWindow(ctx.query);
  const companyId = companyFilter(ctx);
  const search = ctx.query.get('search') ?? undefined;
  return ctx.data.threads
    .filter(
      (t) =>
        t.account_id === accountId &&
        (companyId === undefined || t.company_id === companyId) &&
        inWindow(lastMessageAt(t), window) &&
        (search === undefined || matches(search, t.customer_phone_number, t.customer_name, ...tagNames(ctx.data, t.tag_ids))),
    )
    .sort((a, b) => Date.parse(lastMessageAt(b)) - Date.parse(lastMessageAt(a)));
}

export function listThreads(ctx: RequestContext) {
  const acc = account(ctx);
  return pageOf(ctx, 'sms_threads', threadsOf(ctx, acc.id), (t) => threadView(ctx.data, t));
}

/** The thread's messages, oldest first, in the paged wrapper under `tags` (CallRail's naming). */
export function getThread(ctx: RequestContext) {
  const acc = account(ctx);
  const thread = owned(ctx.data.threads, acc.id, (t) => t.id === ctx.params.thread_id);
  const withErrors = boolParam(ctx.query, 'with_msg_errors') ?? false;
  return pageOf(ctx, 'tags', thread.messages, (m) => messageView(m, withErrors), paging(ctx.query, 100, 100));
}

export function listConversations(ctx: RequestContext) {
  const acc = account(ctx);
  return pageOf(ctx, 'conversations', threadsOf(ctx, acc.id), (t) => conversationView(ctx.data, t, false));
}

export function getConversation(ctx: RequestContext) {
  const acc = account(ctx);
  return conversationView(
    ctx.data,
    owned(ctx.data.threads, acc.id, (t) => t.id === ctx.params.conversation_id),
    true,
  );
}
