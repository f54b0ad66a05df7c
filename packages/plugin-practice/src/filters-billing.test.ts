import { useSandbox } from '@portico/core/testing';
import { clioPlugin } from './index.js';
import { BILLING, describeClioFilters } from './sandbox/filter-suite.test-support.js';

// Every documented list filter of Clio's money lists (time, bills, payments, trust and bank accounts, rates) against a
// sandbox of their own.
// The filter suite only lists: the seed laid at start serves every case, unrestored.
describeClioFilters(useSandbox(clioPlugin, { resetEachTest: false }), (operation) => BILLING.test(operation));
