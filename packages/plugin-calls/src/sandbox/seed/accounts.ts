import { FIRM, FIRM_PEOPLE } from '@portico/core/testing/emulator';
import type { AccountRec, CompanyRec, SandboxData, TagRec, TrackerRec, UserRec } from '../records.js';
import { IDS } from './ids.js';
import { ATTRIBUTION } from './markets.js';
import { hexId } from './random.js';

/** The accounts and how they are set up: companies, trackers, users and tags. */
export type AccountSetup = Pick<SandboxData, 'accounts' | 'companies' | 'trackers' | 'users' | 'tags'>;

/** Two accounts, Harlow & Pike LLP (San Francisco and Oakland) and its estate-planning marketing line (Marin), with their companies, trackers, users and tags. */
export function seedAccounts(): AccountSetup {
  const accounts: AccountRec[] = [
    { id: IDS.harbor, numeric_id: 266101549, name: 'Harlow & Pike LLP', outbound_recording_enabled: true, hipaa_account: true },
    {
      id: IDS.summit,
      numeric_id: 318845220,
      name: 'Harlow & Pike Estate Planning',
      outbound_recording_enabled: false,
      hipaa_account: false,
    },
  ];

  const companies: CompanyRec[] = [
    {
      account_id: IDS.harbor,
      id: IDS.downtown,
      name: 'Harlow & Pike - San Francisco',
      status: 'active',
      time_zone: 'America/Los_Angeles',
      created_at: '2023-02-06T14:11:52.000-05:00',
      disabled_at: null,
      city: 'San Francisco',
      area_code: '415',
      domain: 'harlowpike.example',
    },
    {
      account_id: IDS.harbor,
      id: IDS.westside,
      name: 'Harlow & Pike - Oakland',
      status: 'active',
      time_zone: 'America/Los_Angeles',
      created_at: '2023-09-18T09:40:03.000-04:00',
      disabled_at: null,
      city: 'Oakland',
      area_code: '415',
      domain: 'harlowpike.example',
    },
    {
      account_id: IDS.summit,
      id: IDS.denver,
      name: 'Estate Planning - Marin',
      status: 'active',
      time_zone: 'America/Los_Angeles',
      created_at: '2022-11-02T10:05:41.000-06:00',
      disabled_at: null,
      city: 'San Rafael',
      area_code: '628',
      domain: 'estates.harlowpike.example',
    },
    {
      account_id: IDS.summit,
      id: IDS.boulder,
      name: 'Estate Planning - San Jose',
      status: 'disabled',
      time_zone: 'America/Los_Angeles',
      created_at: '2023-04-12T08:22:10.000-06:00',
      disabled_at: '2024-10-31T17:00:00.000-06:00',
      city: 'San Jose',
      area_code: '628',
      domain: 'estates.harlowpike.example',
    },
  ];

  const tracker = (
    account_id: string,
    company_id: string,
    n: number,
    name: string,
    type: TrackerRec['type'],
    source: string | null,
    numbers: string[],
    destination: string,
    status: TrackerRec['status'] = 'active',
    id = hexId('TRK', `tracker-${account_id}-${n}`),
  ): TrackerRec => {
    const attribution = source ? ATTRIBUTION[source] : undefined;
    return {
      account_id,
      company_id,
      id,
      name,
      type,
      status,
      tracking_numbers: numbers,
      destination_number: destination,
      source,
      medium: attribution?.medium ?? null,
      campaign: source === 'Google Ads' ? 'Wrongful Termination - Search' : null,
      created_at: `2024-0${(n % 9) + 1}-1${n % 10}T10:00:00.000-04:00`,
      disabled_at: status === 'disabled' ? '2025-01-31T18:00:00.000-05:00' : null,
    };
  };
  const trackers: TrackerRec[] = [
    tracker(
      IDS.harbor,
      IDS.downtown,
      1,
      'Google Ads - Injury & Employment',
      'source',
      'Google Ads',
      ['+14155550141'],
      '+14155550100',
      'active',
      IDS.googleTracker,
    ),
    tracker(
      IDS.harbor,
      IDS.downtown,
      2,
      'Website Visitors - San Francisco',
      'session',
      null,
      ['+14155550150', '+14155550151', '+14155550152'],
      '+14155550100',
    ),
    tracker(IDS.harbor, IDS.westside, 3, 'Facebook Ads - Family Law', 'source', 'Facebook', ['+14155550161'], '+15105550100'),
    tracker(IDS.harbor, IDS.westside, 4, 'Referral Line - Oakland', 'source', 'Direct', ['+15105550170'], '+15105550100'),
    tracker(
      IDS.harbor,
      IDS.downtown,
      5,
      'Estate Planning Seminar Mailer',
      'source',
      'Direct',
      ['+14155550180'],
      '+14155550100',
      'disabled',
    ),
    tracker(IDS.summit, IDS.denver, 6, 'Google Ads - Estate Planning', 'source', 'Google Ads', ['+16285550141'], '+16285550100'),
    tracker(IDS.summit, IDS.denver, 7, 'Website - Estate Planning', 'session', null, ['+16285550150', '+16285550151'], '+16285550100'),
  ];

  const user = (
    account_id: string,
    n: number,
    first: string,
    last: string,
    role: UserRec['role'],
    company_ids: string[],
    id = hexId('USR', `user-${account_id}-${n}`),
  ): UserRec => ({
    account_id,
    id,
    numeric_id: 210551 + n,
    first_name: first,
    last_name: last,
    // the address the firm's people have everywhere (the one they sign in to the gateway with)
    email: FIRM_PEOPLE.find((p) => p.name === `${first} ${last}`)?.email ?? `${first.toLowerCase()}@${FIRM.domain}`,
    role,
    company_ids,
    created_at: `2023-0${n}-0${n}T09:00:00.000-05:00`,
  });
  const users: UserRec[] = [
    user(IDS.harbor, 1, 'Sofia', 'Alvarez', 'admin', [IDS.downtown, IDS.westside], IDS.firstUser),
    user(IDS.harbor, 2, 'Tom', 'Becker', 'agent', [IDS.downtown]),
    user(IDS.harbor, 3, 'Priya', 'Raman', 'agent', [IDS.westside]),
    user(IDS.harbor, 4, 'Nora', 'Quinn', 'reporting', [IDS.downtown, IDS.westside]),
    user(IDS.summit, 5, 'Margaret', 'Harlow', 'admin', [IDS.denver, IDS.boulder]),
    user(IDS.summit, 6, 'Daniel', 'Pike', 'agent', [IDS.denver]),
  ];

  const tags: TagRec[] = [
    {
      account_id: IDS.harbor,
      id: 4021993,
      name: 'New Client Inquiry',
      tag_level: 'account',
      company_id: null,
      color: 'green1',
      status: 'enabled',
      created_at: '2023-02-07T10:00:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 4021994,
      name: 'Existing Client',
      tag_level: 'account',
      company_id: null,
      color: 'blue1',
      status: 'enabled',
      created_at: '2023-02-07T10:01:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 4021995,
      name: 'Court Date Soon',
      tag_level: 'company',
      company_id: IDS.downtown,
      color: 'red1',
      status: 'enabled',
      created_at: '2023-03-01T11:30:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 4021996,
      name: 'Billing Question',
      tag_level: 'company',
      company_id: IDS.westside,
      color: 'orange1',
      status: 'enabled',
      created_at: '2023-10-02T16:45:00.000-04:00',
    },
    {
      account_id: IDS.harbor,
      id: 4021997,
      name: 'Wrong Number',
      tag_level: 'account',
      company_id: null,
      color: 'gray1',
      status: 'disabled',
      created_at: '2023-04-14T08:20:00.000-04:00',
    },
    {
      account_id: IDS.summit,
      id: 4022101,
      name: 'Living Trust',
      tag_level: 'account',
      company_id: null,
      color: 'purple1',
      status: 'enabled',
      created_at: '2022-11-03T09:00:00.000-06:00',
    },
    {
      account_id: IDS.summit,
      id: 4022102,
      name: 'Seminar RSVP',
      tag_level: 'account',
      company_id: null,
      color: 'yellow1',
      status: 'enabled',
      created_at: '2022-11-03T09:05:00.000-06:00',
    },
    {
      account_id: IDS.summit,
      id: 4022103,
      name: 'Trust Review',
      tag_level: 'company',
      company_id: IDS.denver,
      color: 'teal1',
      status: 'enabled',
      created_at: '2023-05-20T13:00:00.000-06:00',
    },
  ];

  return { accounts, companies, trackers, users, tags };
}
