import { FreeObject, StringEnum, type TSchema, Type } from '@portico/core/plugin';

/**
 * Notion ids are UUIDs; Notion accepts them with or without dashes (the dashless form is what appears in
 * notion.so URLs), so both are valid input here.
 */
export const NOTION_ID_PATTERN = '^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$';

export function NotionId(description: string, example: string) {
  return Type.String({ pattern: NOTION_ID_PATTERN, description, examples: [example] });
}

export const EXAMPLE_PAGE_ID = 'b55c9c91-384d-452b-81db-d1ef79372b75';
export const EXAMPLE_DATABASE_ID = '668d797c-76fa-4934-9b05-ad288df2d136';
export const EXAMPLE_BLOCK_ID = 'c02fc1d3-db8b-45c5-a222-27595b15aea7';
export const EXAMPLE_USER_ID = 'd40e767c-d7af-4b18-a86d-55c61f1e39a4';
export const EXAMPLE_DISCUSSION_ID = 'f1407351-36f5-4c49-a13c-49f8ba11776d';

export const PageId = NotionId(
  'Id of the page (UUID, dashes optional). Find it with search, query_database, or in the page URL (the 32 hex digits at its end).',
  EXAMPLE_PAGE_ID,
);
export const DatabaseId = NotionId(
  'Id of the database (UUID, dashes optional). Find it with list_databases or search (filter value "database").',
  EXAMPLE_DATABASE_ID,
);
export const BlockId = NotionId(
  'Id of the block (UUID, dashes optional). Block ids come from list_block_children; a page id is also a block id.',
  EXAMPLE_BLOCK_ID,
);
export const UserId = NotionId('Id of the user (UUID, dashes optional). Find it with list_users.', EXAMPLE_USER_ID);

// ---- paging -------------------------------------------------------------------------------------------------------

/** Notion's documented maximum page size. */
export const MAX_PAGE_SIZE = 100;

export const StartCursor = Type.String({
  minLength: 1,
  description: 'Cursor to continue a listing: the next_cursor of the previous response. Omit for the first page.',
  examples: ['fe2cc560-036c-44cd-90e8-294d5a74cebc'],
});

/** The catalog's `page_size (number, max 100)`: a whole number, so `"25"` (a query string's text) is accepted as 25. */
export const PageSize = Type.Integer({
  minimum: 1,
  maximum: MAX_PAGE_SIZE,
  description:
    'How many items to return per call, a whole number from 1 to 100 (Notion returns 100 when omitted). When has_more is true, ask for the next items with start_cursor.',
  examples: [25],
});

// ---- inputs shared by several operations ---------------------------------------------------------------------------

/** Notion's limit for the elements of one rich text array. */
export const MAX_RICH_TEXT_ITEMS = 100;
/** Notion's limit for the content of one text element. */
export const MAX_TEXT_CONTENT = 2000;
/** Notion's limit for the blocks of one create or append request. */
export const MAX_CHILDREN = 100;

const RichTextItem = Type.Object(
  {
    type: Type.Optional(StringEnum(['text', 'mention', 'equation'], { description: 'Kind of element; "text" when omitted.' })),
    text: Type.Optional(
      Type.Object(
        {
          content: Type.String({ maxLength: MAX_TEXT_CONTENT, description: 'The text, at most 2000 characters.' }),
          link: Type.Optional(Type.Union([Type.Object({ url: Type.String({ description: 'Link target' }) }), Type.Null()])),
        },
        { description: 'A plain text run.' },
      ),
    ),
    annotations: Type.Optional(FreeObject({ description: 'Styling: bold, italic, strikethrough, underline, code, color.' })),
  },
  { description: 'One rich text element (Notion rich text object); mention and equation elements carry their own key.' },
);

export function RichTextArray(description: string, options: { minItems?: number } = {}) {
  return Type.Array(RichTextItem, {
    ...options,
    maxItems: MAX_RICH_TEXT_ITEMS,
    description: `${description} An array of Notion rich text objects (at most 100), e.g. [{ "text": { "content": "Hello" } }].`,
    examples: [[{ type: 'text', text: { content: 'Quarterly planning' } }]],
  });
}

export const BlockArray = Type.Array(
  FreeObject({ description: 'A Notion block object keyed by its type, e.g. { "paragraph": { "rich_text": [...] } }.' }),
  {
    minItems: 1,
    maxItems: MAX_CHILDREN,
    description:
      'Content blocks (at most 100 per request, nesting at most two levels). An array of Notion block objects, each keyed by its type, e.g. [{ "object": "block", "type": "paragraph", "paragraph": { "rich_text": [{ "text": { "content": "Hello" } }] } }].',
    examples: [
      [
        { object: 'block', type: 'heading_2', heading_2: { rich_text: [{ type: 'text', text: { content: 'Agenda' } }] } },
        {
          object: 'block',
          type: 'to_do',
          to_do: { rich_text: [{ type: 'text', text: { content: 'Review the budget' } }], checked: false },
        },
      ],
    ],
  },
);

const ExternalFile = Type.Object({ url: Type.String({ minLength: 1, description: 'Public URL of the image' }) });

export const Icon = Type.Union(
  [
    Type.Object(
      { type: Type.Optional(StringEnum(['emoji'])), emoji: Type.String({ minLength: 1, description: 'One emoji character' }) },
      { additionalProperties: false },
    ),
    Type.Object({ type: Type.Optional(StringEnum(['external'])), external: ExternalFile }, { additionalProperties: false }),
  ],
  {
    // Both forms are objects: saying so keeps the parameter an object, as the catalog types it, in every document.
    type: 'object',
    description:
      'Icon: an emoji object { "type": "emoji", "emoji": "📝" } or an external file { "type": "external", "external": { "url": "…" } }.',
    examples: [{ type: 'emoji', emoji: '📝' }],
  },
);

export const Cover = Type.Object(
  { type: Type.Optional(StringEnum(['external'])), external: ExternalFile },
  {
    additionalProperties: false,
    description: 'Cover image; Notion accepts external URLs only: { "type": "external", "external": { "url": "https://…" } }.',
    examples: [{ type: 'external', external: { url: 'https://images.unsplash.com/photo-1497032628192-86f99bcd76bc' } }],
  },
);

/** In updates `null` removes the icon or cover. */
export function Removable<T extends TSchema>(schema: T, description: string) {
  return Type.Union([schema, Type.Null()], { description });
}

export const PageParent = Type.Object(
  { type: Type.Optional(StringEnum(['page_id'])), page_id: PageId },
  {
    additionalProperties: false,
    description: 'A page parent: { "page_id": "…" }, with a page id from search, query_database or a notion.so URL.',
    examples: [{ page_id: EXAMPLE_PAGE_ID }],
  },
);

export const DatabaseParent = Type.Object(
  { type: Type.Optional(StringEnum(['database_id'])), database_id: DatabaseId },
  { additionalProperties: false, description: 'A database parent: { "database_id": "…" }.' },
);

// ---- responses (Core Specification, "Notes-workspace objects") ----------------------------------------------------

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const PartialUser = Type.Object(
  { object: Type.String(), id: Type.String() },
  { description: 'A user reference (id only; get_user returns the rest).' },
);
const Timestamp = Type.String({ description: 'ISO 8601 timestamp' });
const Parent = FreeObject({ description: 'Where the object lives: { "type": "page_id" | "database_id" | "block_id" | "workspace", … }' });
const FileOrEmoji = Nullable(FreeObject());
const RichText = Type.Array(FreeObject(), { description: 'Rich text objects; plain_text holds the text.' });

export const User = Type.Object(
  {
    object: Type.String({ description: 'Always "user"' }),
    id: Type.String(),
    type: Type.Optional(Type.String({ description: '"person" or "bot"' })),
    name: Type.Optional(Nullable(Type.String())),
    avatar_url: Type.Optional(Nullable(Type.String())),
  },
  { description: 'A Notion user: a person (with person.email) or a bot (an integration).' },
);

export const Page = Type.Object(
  {
    object: Type.String({ description: 'Always "page"' }),
    id: Type.String(),
    created_time: Type.Optional(Timestamp),
    last_edited_time: Type.Optional(Timestamp),
    created_by: Type.Optional(PartialUser),
    last_edited_by: Type.Optional(PartialUser),
    archived: Type.Optional(Type.Boolean()),
    in_trash: Type.Optional(Type.Boolean()),
    icon: Type.Optional(FileOrEmoji),
    cover: Type.Optional(FileOrEmoji),
    properties: Type.Optional(
      FreeObject({ description: 'Property values keyed by property name; each has id, type and a value under its type.' }),
    ),
    parent: Type.Optional(Parent),
    url: Type.Optional(Type.String()),
    public_url: Type.Optional(Nullable(Type.String())),
  },
  { description: 'A Notion page (its properties, not its content).' },
);

export const Database = Type.Object(
  {
    object: Type.String({ description: 'Always "database"' }),
    id: Type.String(),
    created_time: Type.Optional(Timestamp),
    last_edited_time: Type.Optional(Timestamp),
    created_by: Type.Optional(PartialUser),
    last_edited_by: Type.Optional(PartialUser),
    title: Type.Optional(RichText),
    description: Type.Optional(RichText),
    icon: Type.Optional(FileOrEmoji),
    cover: Type.Optional(FileOrEmoji),
    properties: Type.Optional(
      FreeObject({ description: 'Property schema keyed by property name; each has id, name, type and its configuration.' }),
    ),
    parent: Type.Optional(Parent),
    url: Type.Optional(Type.String()),
    public_url: Type.Optional(Nullable(Type.String())),
    archived: Type.Optional(Type.Boolean()),
    in_trash: Type.Optional(Type.Boolean()),
    is_inline: Type.Optional(Type.Boolean()),
  },
  { description: 'A Notion database: its title and property schema (rows come from query_database).' },
);

export const Comment = Type.Object(
  {
    object: Type.String({ description: 'Always "comment"' }),
    id: Type.String(),
    parent: Type.Optional(Parent),
    discussion_id: Type.Optional(Type.String()),
    created_time: Type.Optional(Timestamp),
    last_edited_time: Type.Optional(Timestamp),
    created_by: Type.Optional(PartialUser),
    rich_text: Type.Optional(RichText),
  },
  { description: 'A comment on a page or block, part of a discussion thread.' },
);

/** Notion's paginated list wrapper. */
export function ListOf<T extends TSchema>(item: T, description: string) {
  return Type.Object(
    {
      object: Type.String({ description: 'Always "list"' }),
      results: Type.Array(item),
      next_cursor: Nullable(Type.String({ description: 'Pass as start_cursor to get the next page; null on the last page.' })),
      has_more: Type.Boolean({ description: 'True when more results follow.' }),
      type: Type.Optional(Type.String()),
    },
    { description },
  );
}
