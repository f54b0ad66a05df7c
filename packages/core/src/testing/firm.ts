/**
 * The one firm every sandbox is seeded with: Harlow & Pike LLP, a small San Francisco law firm. Its facts (people,
 * marketing lines, clients, matters, money and the story that crosses the six applications) are written here once;
 * each plugin's sandbox projects them into its application's own shapes (a Clio contact, a Lawmatics prospect, a
 * QuickBooks customer, a CallRail call, a Slack message, a Notion page). Dates are days relative to the sandbox clock
 * (./clock.ts), never calendar days. Every name, address and number is invented (`.example` domains, 555-01xx numbers).
 */

export * from './firm-callers.js';
export * from './firm-cast.js';
export * from './firm-money.js';
