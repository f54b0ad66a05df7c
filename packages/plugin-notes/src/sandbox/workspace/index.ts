import type { Json } from '../json.js';
import * as blocks from './blocks.js';
import * as comments from './comments.js';
import * as databases from './databases.js';
import * as pages from './pages.js';
import * as search from './search.js';
import { type Paging, type Stamp, Store } from './store.js';
import * as users from './users.js';

export type { Paging, Stamp } from './store.js';

/**
 * The sandbox's in-memory Notion workspace: users, pages, databases, blocks and comments, with Notion's rules for
 * creating, changing and archiving them. Objects are stored in the shape Notion returns them.
 */
export class Workspace extends Store {
  addUser(record: Json): void {
    users.addUser(this, record);
  }

  listUsers(paging: Paging): Json {
    return users.listUsers(this, paging);
  }

  getUser(rawId: string): Json {
    return users.getUser(this, rawId);
  }

  me(): Json {
    return users.me(this);
  }

  getPage(rawId: string): Json {
    return pages.getPage(this, rawId);
  }

  createPage(body: Json, stamp: Stamp = {}): Json {
    return pages.createPage(this, body, stamp);
  }

  updatePage(rawId: string, body: Json): Json {
    return pages.updatePage(this, rawId, body);
  }

  getPageProperty(rawPageId: string, rawPropertyId: string, paging: Paging): Json {
    return pages.getPageProperty(this, rawPageId, rawPropertyId, paging);
  }

  getDatabase(rawId: string): Json {
    return databases.getDatabase(this, rawId);
  }

  createDatabase(body: Json, stamp: Stamp = {}): Json {
    return databases.createDatabase(this, body, stamp);
  }

  updateDatabase(rawId: string, body: Json): Json {
    return databases.updateDatabase(this, rawId, body);
  }

  queryDatabase(rawId: string, body: Json, paging: Paging): Json {
    return databases.queryDatabase(this, rawId, body, paging);
  }

  search(body: Json, paging: Paging): Json {
    return search.search(this, body, paging);
  }

  getBlock(rawId: string): Json {
    return blocks.getBlock(this, rawId);
  }

  listChildren(rawId: string, paging: Paging): Json {
    return blocks.listChildren(this, rawId, paging);
  }

  appendChildren(rawId: string, body: Json, stamp: Stamp = {}): Json {
    return blocks.appendChildren(this, rawId, body, stamp);
  }

  updateBlock(rawId: string, body: Json): Json {
    return blocks.updateBlock(this, rawId, body);
  }

  deleteBlock(rawId: string): Json {
    return blocks.deleteBlock(this, rawId);
  }

  listComments(rawBlockId: string | undefined, paging: Paging): Json {
    return comments.listComments(this, rawBlockId, paging);
  }

  createComment(body: Json, stamp: Stamp = {}): Json {
    return comments.createComment(this, body, stamp);
  }
}
