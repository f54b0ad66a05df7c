import { parseAuditQuery, publicAuditPage } from '../../records/audit.js';
import type { WorkspaceRoutes } from './guards.js';

/** `…/audit`: the workspace's audit trail. */
export function mountAuditRoutes({ router, prefix, workspaceOf, engine }: WorkspaceRoutes): void {
  // Filters and cursor paging (records/audit.ts): newest first, `next_cursor` to the next page.
  router.get(`${prefix}/audit`, async (ctx) => {
    const query = parseAuditQuery(await workspaceOf(ctx), ctx.query);
    await engine.flushAudit();
    ctx.body = publicAuditPage(await engine.store.queryAudit(query));
  });
}
