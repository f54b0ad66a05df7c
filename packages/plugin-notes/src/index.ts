import { definePlugin, packageVersion, Type } from '@portico/core/plugin';
import { notionEvents } from './events.js';
import { identify } from './identify.js';
import { appendBlockChildren, deleteBlock, getBlock, listBlockChildren, updateBlock } from './operations/blocks.js';
import { createComment, listComments } from './operations/comments.js';
import { createDatabase, getDatabase, listDatabases, queryDatabase, updateDatabase } from './operations/databases.js';
import { createPage, getPage, getPageProperty, updatePage } from './operations/pages.js';
import { search } from './operations/search.js';
import { getMe, getUser, listUsers } from './operations/users.js';
import { DEFAULT_NOTION_VERSION, inspectNotionResponse, notionHeaders } from './upstream.js';
import { notionVocabulary } from './vocabulary.js';

export const notionPlugin = definePlugin({
  service: 'notion',
  displayName: 'Notion',
  version: packageVersion(import.meta.url),
  description:
    "Notion workspace, the firm's notes and wiki: search pages and databases, read and write pages, database rows and their content blocks, list users, and read or add comments.",
  contract: 1,
  upstream: {
    baseUrl: 'https://api.notion.com/v1',
    headers: notionHeaders,
    inspect: inspectNotionResponse,
    // Notion's limit per integration (token): an average of three requests a second, bursts allowed (README).
    limits: { perMinute: 180 },
  },
  auth: {
    token: {
      description:
        'The secret of a Notion internal integration (starts with ntn_ or secret_), from notion.so/profile/integrations. Share the pages and databases the gateway may use with the integration (page menu, Connections).',
    },
    // Public integrations: https://developers.notion.com/docs/authorization — the token answer carries the workspace;
    // classic tokens do not expire and come without a refresh token.
    oauth2: {
      authorizeUrl: 'https://api.notion.com/v1/oauth/authorize',
      tokenUrl: 'https://api.notion.com/v1/oauth/token',
      authorizeParams: { owner: 'user' },
      clientAuth: 'basic',
      tokenRequest: 'json',
      connectionFacts: (_callback, body) => {
        const b = (body ?? {}) as Record<string, unknown>;
        return { workspace_id: b.workspace_id ?? null, workspace_name: b.workspace_name ?? null, bot_id: b.bot_id ?? null };
      },
    },
  },
  settings: Type.Object({
    notion_version: Type.String({
      default: DEFAULT_NOTION_VERSION,
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      description:
        'Notion-Version header sent with every request. The operations are written for 2022-06-28; newer versions change database endpoints.',
    }),
  }),
  operations: [
    search,
    getPage,
    createPage,
    updatePage,
    getPageProperty,
    listDatabases,
    getDatabase,
    queryDatabase,
    createDatabase,
    updateDatabase,
    getBlock,
    updateBlock,
    deleteBlock,
    listBlockChildren,
    appendBlockChildren,
    listUsers,
    getUser,
    getMe,
    listComments,
    createComment,
  ],
  vocabulary: notionVocabulary,
  events: notionEvents,
  sandbox: () => import('./sandbox/index.js'),
  identify,
});

export default notionPlugin;
