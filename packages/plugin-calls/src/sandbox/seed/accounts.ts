import type { AccountRec, CompanyRec, SandboxData, TagRec, TrackerRec, UserRec } from '../records.js';
import { IDS } from './ids.js';
import { ATTRIBUTION } from './markets.js';
import { hexId } from './random.js';

/** The accounts and how they are set up: companies, trackers, users and tags. */
export type AccountSetup = Pick<SandboxData, 'accounts' | 'companies' | 'trackers' | 'users' | 'tags'>;

/** Two accounts, a dental group in Boston and a roofer in Denver, with their companies, trackers, users and tags. */
export function seedAccounts(): AccountSetup {
  const accounts: AccountRec[] = [
    { id: IDS.harbor, numeric_id: 266101549, name: 'Harbor Dental Group', outbound_recording_enabled: true, hipaa_account: true },
    { id: IDS.summit, numeric_id: 318845220, name: 'Summit Roofing & Gutters', outbound_recording_enabled: false, hipaa_account: false },
  ];

  const companies: CompanyRec[] = [
    {
      account_id: IDS.harbor,
      id: IDS.downtown,
      name: 'Harbor Dental - Downtown',
      status: 'active',
      time_zone: 'America/New_York',
      offset: '-04:00',
      created_at: '2023-02-06T14:11:52.000-05:00',
      disabled_at: null,
      city: 'Boston',
      area_code: '617',
      domain: 'harbordental.example',
    },
    {
      account_id: IDS.harbor,
      id: IDS.westside,
      name: 'Harbor Dental - Westside',
      status: 'active',
      time_zone: 'America/New_York',
      offset: '-04:00',
      created_at: '2023-09-18T09:40:03.000-04:00',
      disabled_at: null,
      city: 'Newton',
      area_code: '617',
      domain: 'harbordental.example',
    },
    {
      account_id: IDS.summit,
      id: IDS.denver,
      name: 'Summit Roofing - Denver',
      status: 'active',
      time_zone: 'America/Denver',
      offset: '-06:00',
      created_at: '2022-11-02T10:05:41.000-06:00',
      disabled_at: null,
      city: 'Denver',
      area_code: '303',
      domain: 'summitroofing.example',
    },
    {
      account_id: IDS.summit,
      id: IDS.boulder,
      name: 'Summit Roofing - Boulder',
      status: 'disabled',
      time_zone: 'America/Denver',
      offset: '-06:00',
      created_at: '2023-04-12T08:22:10.000-06:00',
      disabled_at: '2024-10-31T17:00:00.000-06:00',
      city: 'Boulder',
      area_code: '303',
      domain: 'summitroofing.example',
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
      campaign: source === 'Google Ads' ? 'Spring Whitening Promo' : null,
      created_at: `2024-0${(n % 9) + 1}-1${n % 10}T10:00:00.000-04:00`,
      disabled_at: status === 'disabled' ? '2025-01-31T18:00:00.000-05:00' : null,
    };
  };
  const trackers: TrackerRec[] = [
    tracker(
      IDS.harbor,
      IDS.downtown,
      1,
      'Google Ads - Downtown',
      'source',
      'Google Ads',
      ['+16175550141'],
      '+16175550100',
      'active',
      IDS.googleTracker,
    ),
    tracker(
      IDS.harbor,
      IDS.downtown,
      2,
      'Website Visitors - Downtown',
      'session',
      null,
      ['+16175550150', '+16175550151', '+16175550152'],
      '+16175550100',
    ),
    tracker(IDS.harbor, IDS.westside, 3, 'Facebook Ads - Westside', 'source', 'Facebook', ['+16175550161'], '+16175550200'),
    tracker(IDS.harbor, IDS.westside, 4, 'Office Line - Westside', 'source', 'Direct', ['+16175550170'], '+16175550200'),
    tracker(IDS.harbor, IDS.downtown, 5, 'Spring Mailer 2024', 'source', 'Direct', ['+16175550180'], '+16175550100', 'disabled'),
    tracker(IDS.summit, IDS.denver, 6, 'Google Ads - Roofing', 'source', 'Google Ads', ['+13035550141'], '+13035550100'),
    tracker(IDS.summit, IDS.denver, 7, 'Website - Summit Roofing', 'session', null, ['+13035550150', '+13035550151'], '+13035550100'),
  ];

  const user = (
    account_id: string,
    n: number,
    first: string,
    last: string,
    role: UserRec['role'],
    company_ids: string[],
    domain: string,
    id = hexId('USR', `user-${account_id}-${n}`),
  ): UserRec => ({
    account_id,
    id,
    numeric_id: 210551 + n,
    first_name: first,
    last_name: last,
    email: `${first.toLowerCase()}.${last.toLowerCase()}@${domain}`,
    role,
    company_ids,
    created_at: `2023-0${n}-0${n}T09:00:00.000-05:00`,
  });
  const users: UserRec[] = [
    user(IDS.harbor, 1, 'Emily', 'Chen', 'admin', [IDS.downtown, IDS.westside], 'harbordental.example', IDS.firstUser),
    user(IDS.harbor, 2, 'Marcus', 'Reed', 'agent', [IDS.downtown], 'harbordental.example'),
    user(IDS.harbor, 3, 'Priya', 'Nair', 'agent', [IDS.westside], 'harbordental.example'),
    user(IDS.harbor, 4, 'Tom', 'Gallagher', 'reporting', [IDS.downtown, IDS.westside], 'harbordental.example'),
    user(IDS.summit, 5, 'Dana', 'Kowalski', 'admin', [IDS.denver, IDS.boulder], 'summitroofing.example'),
    user(IDS.summit, 6, 'Luis', 'Ortega', 'agent', [IDS.denver], 'summitroofing.example'),
  ];

  const tags: TagRec[] = [
    {
      account_id: IDS.harbor,
      id: 4021993,
      name: 'New Patient',
      tag_level: 'account',
      company_id: null,
      color: 'green1',
      status: 'enabled',
      created_at: '2023-02-07T10:00:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 4021994,
      name: 'Existing Patient',
      tag_level: 'account',
      company_id: null,
      color: 'blue1',
      status: 'enabled',
      created_at: '2023-02-07T10:01:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 4021995,
      name: 'Emergency',
      tag_level: 'company',
      company_id: IDS.downtown,
      color: 'red1',
      status: 'enabled',
      created_at: '2023-03-01T11:30:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 4021996,
      name: 'Insurance Question',
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
      name: 'Roof Repair',
      tag_level: 'account',
      company_id: null,
      color: 'purple1',
      status: 'enabled',
      created_at: '2022-11-03T09:00:00.000-06:00',
    },
    {
      account_id: IDS.summit,
      id: 4022102,
      name: 'Estimate Requested',
      tag_level: 'account',
      company_id: null,
      color: 'yellow1',
      status: 'enabled',
      created_at: '2022-11-03T09:05:00.000-06:00',
    },
    {
      account_id: IDS.summit,
      id: 4022103,
      name: 'Gutter Cleaning',
      tag_level: 'company',
      company_id: IDS.denver,
      color: 'teal1',
      status: 'enabled',
      created_at: '2023-05-20T13:00:00.000-06:00',
    },
  ];

  return { accounts, companies, trackers, users, tags };
}
