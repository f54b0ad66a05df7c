import { IDS } from './ids.js';

// Who calls and writes, from where, and how marketing brought them: the pools the generated calls and forms draw from.

export const FIRST_NAMES = [
  'Maria',
  'James',
  'Aisha',
  'Daniel',
  'Sofia',
  'Kevin',
  'Grace',
  'Omar',
  'Hannah',
  'Luis',
  'Megan',
  'Tyler',
  'Priyanka',
  'Ethan',
  'Chloe',
  'Andre',
  'Natalie',
  'Victor',
  'Leah',
  'Samuel',
];
export const LAST_NAMES = [
  'Lopez',
  'Jenkins',
  'Patel',
  'Okafor',
  'Nguyen',
  'Brennan',
  'Kim',
  'Haddad',
  'Sullivan',
  'Moreno',
  'Walsh',
  'Fischer',
  'Rao',
  'Donovan',
  'Baptiste',
];

export interface Market {
  state: string;
  cities: string[];
  area: string;
}
export const MARKETS: Record<string, Market> = {
  [IDS.harbor]: { state: 'MA', cities: ['Boston', 'Cambridge', 'Somerville', 'Quincy', 'Brookline', 'Newton'], area: '617' },
  [IDS.summit]: { state: 'CO', cities: ['Denver', 'Aurora', 'Lakewood', 'Englewood', 'Boulder'], area: '303' },
};

/** Where calls of each source come from: campaign, keyword and referrer choices. */
export const ATTRIBUTION: Record<
  string,
  { medium: string | null; campaigns: (string | null)[]; keywords: (string | null)[]; referrer: string | null }
> = {
  'Google Ads': {
    medium: 'cpc',
    campaigns: ['Spring Whitening Promo', 'Emergency Dental - Search'],
    keywords: ['emergency dentist', 'teeth whitening near me', 'dentist open saturday'],
    referrer: 'google.com',
  },
  Organic: { medium: 'organic', campaigns: [null], keywords: ['dentist downtown boston', null], referrer: 'google.com' },
  Facebook: { medium: 'social', campaigns: ['New Patient Offer - FB'], keywords: [null], referrer: 'facebook.com' },
  Direct: { medium: null, campaigns: [null], keywords: [null], referrer: null },
};
export const ROOFING_ATTRIBUTION: Record<string, (string | null)[]> = {
  'Google Ads': ['Storm Damage - Search', 'Roof Replacement - Search'],
  Organic: [null],
  Facebook: ['Free Inspection - FB'],
  Direct: [null],
};

export const NOTES = [
  'Booked a cleaning for next week',
  'Asked about insurance coverage',
  'Wants a quote, call back after 5pm',
  'Referred by a friend',
  'Left voicemail about a broken crown',
  null,
  null,
  null,
];
