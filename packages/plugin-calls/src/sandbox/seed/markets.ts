import { IDS } from './ids.js';

// Where the firm's callers are, and how marketing brought them: the pools the generated calls and forms draw from (the
// callers themselves are the firm's clients and leads, @portico/core/testing's firmCallers).

export interface Market {
  state: string;
  cities: string[];
  area: string;
}
export const MARKETS: Record<string, Market> = {
  [IDS.harbor]: { state: 'CA', cities: ['San Francisco', 'Oakland', 'Berkeley', 'Daly City', 'San Mateo', 'Emeryville'], area: '415' },
  [IDS.summit]: { state: 'CA', cities: ['San Rafael', 'Mill Valley', 'Novato', 'Sausalito', 'San Jose'], area: '628' },
};

/** Where calls of each source come from: campaign, keyword and referrer choices. */
export const ATTRIBUTION: Record<
  string,
  { medium: string | null; campaigns: (string | null)[]; keywords: (string | null)[]; referrer: string | null }
> = {
  'Google Ads': {
    medium: 'cpc',
    campaigns: ['Wrongful Termination - Search', 'Injury Lawyer - Search'],
    keywords: ['employment lawyer san francisco', 'wrongful termination attorney', 'personal injury lawyer near me'],
    referrer: 'google.com',
  },
  Organic: { medium: 'organic', campaigns: [null], keywords: ['family law attorney san francisco', null], referrer: 'google.com' },
  Facebook: { medium: 'social', campaigns: ['Free Consultation - FB'], keywords: [null], referrer: 'facebook.com' },
  Direct: { medium: null, campaigns: [null], keywords: [null], referrer: null },
};
export const ROOFING_ATTRIBUTION: Record<string, (string | null)[]> = {
  'Google Ads': ['Living Trust - Search', 'Estate Planning Seminar - Search'],
  Organic: [null],
  Facebook: ['Will & Trust Checklist - FB'],
  Direct: [null],
};

export const NOTES = [
  'Booked a consultation for next week',
  'Asked about fees and the retainer',
  'Wants a call back after 5pm',
  'Referred by a past client',
  'Left voicemail about a court date',
  null,
  null,
  null,
];
