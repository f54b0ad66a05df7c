import { useSandbox } from '@portico/core/testing';
import { clioPlugin } from './index.js';
import { BILLING, describeClioFilters } from './sandbox/filter-suite.test-support.js';

// Every documented list filter of Clio's money lists (time, bills, payments, trust and bank accounts, rates) against a
// sandbox of their own.
describeClioFilters(useSandbox(clioPlugin), (operation) => BILLING.test(operation));
