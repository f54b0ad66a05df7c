import {
  addDays,
  FIRM,
  FIRM_CALLS,
  FIRM_MATTERS,
  FIRM_PEOPLE,
  type FirmSource,
  firmClient,
  firmLead,
  formatPhone,
  STORY,
  shiftSeededDates,
} from '@portico/core/testing/emulator';
import { at, type Db, type Ref, record, ref, type StoredRecord } from './model.js';
import { PRACTICE_AREAS, seedFirm } from './seed-firm.js';

/**
 * The seeded firm: Harlow & Pike LLP (@portico/core/testing's firm), with its practice areas (personal injury, family,
 * estate planning, business litigation, employment, and immigration, which it refers out), its users, fourteen
 * matters (prospects: the firm's six client matters and its eight leads, two of them new this morning) and their contacts,
 * other contacts, companies and their addresses, emails and phone numbers. The firm's catalog and work (practice
 * areas, pipelines, events, invoices, time…) are in `seed-firm.ts`. Ids are fixed; every reset builds fresh objects.
 */

/**
 * The day the seed is written against (the seeded "days since last contact" are counted to it); every seeded date is
 * then moved onto the shared sandbox clock (the real date, or `PORTICO_SANDBOX_TODAY`), keeping their spacing.
 */
export const AUTHORED_TODAY = '2024-11-15';
const TODAY = Date.parse(`${AUTHORED_TODAY}T12:00:00-08:00`);

export const USER_ME = '11';

const USERS: Array<[number, string, string, string, string, string]> = [
  ...(
    [
      ['admin', '2021-02-01 09:00'],
      ['admin', '2021-02-01 09:05'],
      ['attorney', '2022-06-13 10:30'],
      ['paralegal', '2022-09-06 08:45'],
      ['intake', '2023-01-17 11:20'],
    ] as const
  ).map(([role, created], i): [number, string, string, string, string, string] => {
    const p = FIRM_PEOPLE[i] as (typeof FIRM_PEOPLE)[number];
    return [11 + i, p.first, p.last, p.email, role, created];
  }),
];

/** Full names of the users, for the string-valued `owned_by`. */
export const USER_NAMES: Record<string, string> = Object.fromEntries(USERS.map(([id, first, last]) => [String(id), `${first} ${last}`]));

interface MatterSeed {
  id: number;
  first: string;
  last: string;
  email: string;
  phone: string;
  title: string;
  blurb: string;
  status: 'pnc' | 'hired' | 'lost';
  sub?: string;
  /** practice area, stage, source, campaign (ids; 0 for none). */
  area: number;
  stage: number;
  source: number;
  campaign: number;
  estimate: number;
  actual: number;
  owner: number;
  created: string;
  contacted: string;
  tags?: number[];
  /** The company a client's contact stands for. */
  company?: string;
}

const SOURCES: FirmSource[] = ['Google Ads', 'Attorney Referral', 'Avvo', 'Website Form', 'Facebook', 'Past Client Referral'];
const STAGES = [
  'New Lead',
  'Consultation Scheduled',
  'Consultation Completed',
  'Retainer Sent',
  'Retained',
  'Discovery',
  'Mediation',
  'Trial Prep',
];

const areaId = (name: string) => {
  const index = PRACTICE_AREAS.indexOf(name);
  if (index < 0) throw new Error(`no Lawmatics practice area ${name}`);
  return 61 + index;
};
const sourceId = (source: FirmSource) => 241 + SOURCES.indexOf(source);
const stageId = (name: string) => 301 + STAGES.indexOf(name);
const userId = (name: string) => Number(Object.entries(USER_NAMES).find(([, n]) => n === name)?.[0] ?? USER_ME);
/** The time (HH:MM) a caller called the firm this morning, if they did. */
const calledToday = (name: string) => FIRM_CALLS.find((c) => c.who === name && c.daysAgo === 0)?.time.slice(0, 5);
/** `daysAgo` before the authored today, at a local time (HH:MM). */
const when = (daysAgo: number, time: string) => `${addDays(AUTHORED_TODAY, -daysAgo)} ${time}`;

// The firm's client matters (@portico/core/testing's FIRM_MATTERS) as retained prospects, and its leads (FIRM_LEADS):
// [id, client or lead, stage, sub status, campaign, estimate, actual (cents), created at, last contact days ago, tags]
// biome-ignore format: one seeded record per line
const CLIENT_MATTERS: Array<[number, string, string, string | null, number, number, number, string, number, number[]]> = [
  [5101, 'Lucia Moreno', 'Discovery', 'Signed - Litigation', 0, 7_500_000, 2_500_000, '10:14', 0, [1, 2]],
  [5104, 'Samuel Okafor', 'Retained', null, 282, 450_000, 450_000, '08:21', 9, []],
  [5106, STORY.client.name, 'Retained', 'Signed - Litigation', 281, 3_000_000, 325_000, '17:48', STORY.calledDaysAgo, []],
  [5107, 'Eleanor Vance', 'Retained', null, 0, 1_800_000, 1_800_000, '11:30', 4, [1]],
  [5108, 'Bayview Properties', 'Retained', null, 0, 500_000, 500_000, '10:00', 150, []],
  [5111, 'Northwind Traders', 'Mediation', 'Signed - Litigation', 0, 4_000_000, 1_500_000, '12:25', 2, [1]],
];
// biome-ignore format: one seeded record per line
const LEAD_MATTERS: Array<[number, string, string | null, number, number, string, number, number[]]> = [
  [5102, 'Caleb Whitman', null, 283, 1_800_000, '09:02', 1, []],
  [5103, 'Harriet Osei', 'Awaiting Documents', 282, 450_000, '14:40', 3, [4]],
  [5105, 'Kofi Mensah', 'Declined - No Merit', 0, 900_000, '13:05', 94, []],
  [5109, 'Greta Sorensen', null, 0, 1_200_000, '09:45', 68, [4]],
  [5110, 'Paul Reddy', 'Declined - No Merit', 281, 2_000_000, '16:12', 215, []],
  [5112, 'Victor Lam', 'Conflict Check', 0, 2_500_000, '19:03', 40, [3]],
  [5113, 'Nadia Farouk', null, 0, 350_000, '06:52', 0, []],
  [5114, 'Jordan Ellis', null, 281, 3_500_000, '08:05', 0, [4]],
];

const MATTERS: MatterSeed[] = [
  ...CLIENT_MATTERS.map(([id, name, stage, sub, campaign, estimate, actual, time, contacted, tags]): MatterSeed => {
    const matter = FIRM_MATTERS.find((m) => m.client === name) as (typeof FIRM_MATTERS)[number];
    const client = firmClient(name);
    return {
      id,
      first: client.first,
      last: client.last,
      email: client.email,
      phone: formatPhone(client.phone),
      title: matter.title,
      blurb: name === STORY.client.name ? STORY.blurb : `${matter.title} (${matter.area}), opened by ${matter.responsible}.`,
      status: 'hired',
      ...(sub ? { sub } : {}),
      area: areaId(matter.area),
      stage: stageId(stage),
      source: sourceId(matter.source),
      campaign,
      estimate,
      actual,
      owner: userId(matter.responsible),
      created: when(matter.openedDaysAgo, time),
      // last contacted today: at their call this morning (FIRM_CALLS)
      contacted: when(contacted, (contacted === 0 && calledToday(`${client.first} ${client.last}`)) || '16:30'),
      tags,
      ...(client.company ? { company: client.company } : {}),
    };
  }),
  ...LEAD_MATTERS.map(([id, name, sub, campaign, estimate, time, contacted, tags]): MatterSeed => {
    const lead = firmLead(name);
    return {
      id,
      first: lead.first,
      last: lead.last,
      email: lead.email,
      phone: formatPhone(lead.phone),
      title: lead.title,
      blurb: lead.blurb,
      status: lead.status,
      ...(sub ? { sub } : {}),
      area: areaId(lead.area),
      stage: stageId(lead.stage),
      source: sourceId(lead.source),
      campaign,
      estimate,
      actual: 0,
      owner: userId(lead.owner),
      created: when(lead.createdDaysAgo, time),
      contacted: when(contacted, contacted === 0 ? time : '11:30'),
      tags,
    };
  }),
].sort((a, b) => a.id - b.id);

// [id, first, last, email, phone, contact type, employer/company, created]
// biome-ignore format: one seeded record per line
const OTHER_CONTACTS: Array<[number, string, string, string | null, string | null, string, string | null, string]> = [
  [8215, 'Rachel', 'Stein', 'rstein@steinlegal.example', '(925) 555-0142', 'Opposing Counsel', null, '2024-07-20 10:00'],
  [8216, 'Dale', 'Nguyen', 'dale.nguyen@pacificmutual.example', '(800) 555-0110', 'Insurance Adjuster', 'Pacific Mutual Insurance', '2023-09-22 14:30'],
  [8217, 'Helen', 'Marsh', 'hmarsh@marshlaw.example', '(925) 555-0120', 'Referral Source', null, '2023-06-01 09:00'],
  [8218, 'Carlos', 'Mendoza', 'carlos@baysiderealty.example', '(925) 555-0130', 'Referral Source', 'Bayside Realty Partners', '2023-08-14 12:00'],
  [8219, 'Dr. Anil', 'Kapoor', 'akapoor@harbormedical.example', '(925) 555-0140', 'Expert Witness', 'Harbor Medical Group', '2024-03-18 15:45'],
  [8220, 'Megan', 'Walsh', 'mwalsh@coastalfreight.example', '(925) 555-0150', 'Opposing Counsel', 'Coastal Freight Lines Inc.', '2023-12-02 11:10'],
  [8221, 'Erin', 'Whitman', null, '(925) 555-0161', 'PNC', null, '2024-11-03 10:00'],
  [8222, 'Martin', 'Vance', 'martin.vance@example.org', '(925) 555-0107', 'PNC', null, '2023-10-23 09:20'],
  [8223, 'Brian', 'Cho', 'bcho@sfcourts.example', '(925) 555-0170', 'Court Clerk', null, '2024-05-20 08:30'],
  [8224, 'Laura', 'Benson', 'laura.benson@sunsetgrocers.example', '(925) 555-0180', 'PNC', 'Sunset Grocers LLC', '2023-08-01 13:00'],
  [8225, 'Omar', 'Siddiqui', 'osiddiqui@example.org', '(925) 555-0190', 'PNC', null, '2024-07-11 17:00'],
  [8226, 'Jessica', 'Lee', 'jlee@pacificmutual.example', '(800) 555-0111', 'Insurance Adjuster', 'Pacific Mutual Insurance', '2024-08-08 10:40'],
  [8227, 'Mark', 'Dunn', 'mdunn@example.net', '(925) 555-0100', 'PNC', null, '2024-09-23 12:15'],
  [8228, 'Nina', 'Petrov', 'npetrov@example.com', null, 'PNC', null, '2024-10-15 09:50'],
  [8229, 'George', 'Adams', 'gadams@adamsmediation.example', '(925) 555-0110', 'Referral Source', null, '2023-03-30 16:00'],
  [8230, 'Yuki', 'Tanaka', 'yuki.tanaka@example.org', '(925) 555-0121', 'PNC', null, '2024-11-02 14:05'],
];

// [id, name, email, phone, street, city, zip, created]: the client companies (@portico/core/testing's firm) first,
// then the companies the firm's matters deal with
const clientCompany = (id: number, name: string, street: string, zip: string, created: string) => {
  const c = firmClient(name);
  return [id, c.company as string, c.email, formatPhone(c.phone), street, c.city, zip, created] as [
    number,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
};
// biome-ignore format: one seeded record per line
const COMPANIES: Array<[number, string, string, string, string, string, string, string]> = [
  [31, 'Coastal Freight Lines Inc.', 'legal@coastalfreight.example', '(925) 555-0104', '2200 Embarcadero', 'Oakland', '94606', '2023-12-01 09:30'],
  [32, 'Pacific Mutual Insurance', 'claims@pacificmutual.example', '(800) 555-0100', '501 Mission St', 'San Francisco', '94105', '2023-09-22 14:00'],
  [33, 'Harbor Medical Group', 'records@harbormedical.example', '(925) 555-0114', '4060 California St', 'San Francisco', '94118', '2024-03-18 15:00'],
  [34, 'Sunset Grocers LLC', 'risk@sunsetgrocers.example', '(925) 555-0124', '3150 Geneva Ave', 'Daly City', '94014', '2023-08-01 10:00'],
  [35, 'Bayside Realty Partners', 'office@baysiderealty.example', '(925) 555-0134', '7825 Bay St', 'San Francisco', '94133', '2023-08-14 11:00'],
  clientCompany(36, 'Northwind Traders', '1200 Embarcadero W', '94607', '2023-12-01 12:25'),
  clientCompany(37, 'Bayview Properties', '1 Bayview Park Dr', '94124', '2023-04-14 10:00'),
];

const days = (from: string) => Math.floor((TODAY - Date.parse(at(from))) / 86_400_000);

function person(first: string, last: string, email: string | null, phone: string | null, created: string, contacted: string) {
  return {
    first_name: first,
    last_name: last,
    email,
    email_address: email,
    phone,
    phone_number: phone,
    custom_fields: [],
    date_of_last_contact: at(contacted),
    days_since_last_contact: days(contacted),
    timezone: 'America/Los_Angeles',
    created_at: at(created),
    updated_at: at(contacted),
  };
}

const tagRefs = (ids: number[] = []): Ref[] => ids.map((id) => ref('tag', id));

export function seedPeople(records: Db['records']): void {
  records.users = USERS.map(([id, first, last, email, role, created]) =>
    record(id, {
      name: `${first} ${last}`,
      first_name: first,
      last_name: last,
      email,
      role,
      profile_pic_url: null,
      sign_in_count: 40 + id * 7,
      created_at: at(created),
      updated_at: at('2024-11-14 08:00'),
    }),
  );
  records.prospects = MATTERS.map((m, i) => {
    const attributes = {
      ...person(m.first, m.last, m.email, m.phone, m.created, m.contacted),
      case_title: m.title,
      case_blurb: m.blurb,
      status: m.status,
      sub_status: m.sub ?? null,
      address: null,
      estimated_value_cents: m.estimate,
      actual_value_cents: m.actual,
      lead_cost_cents: m.source === 241 ? 18_500 : 0,
      referring_url: m.source === 241 ? 'https://www.google.com/' : m.source === 244 ? `${FIRM.website}/contact` : null,
      custom_fields: m.area === 61 ? [{ id: 4601, name: 'Date of Incident', field_type: 'date', value: m.created.slice(0, 10) }] : [],
    };
    const relationships: StoredRecord['relationships'] = {
      source: ref('source', m.source),
      stage: ref('stage', m.stage),
      campaign: m.campaign ? ref('campaign', m.campaign) : null,
      practice_area: ref('practice_area', m.area),
      created_by: ref('user', m.source === 242 ? 15 : m.owner),
      owned_by: USER_NAMES[String(m.owner)] ?? null,
      tags: tagRefs(m.tags),
    };
    return record(m.id, attributes, relationships, { contact_id: String(8201 + i) });
  });
  records.contacts = [
    ...MATTERS.map((m, i) =>
      record(
        8201 + i,
        {
          ...person(m.first, m.last, m.email, m.phone, m.created, m.contacted),
          contact_type: m.status === 'hired' ? 'Client' : 'PNC',
          ...(m.company ? { employer: m.company } : {}),
        },
        {
          created_by: ref('user', 15),
          client: m.status === 'hired' ? (m.company ?? `${m.first} ${m.last}`) : null,
          company: m.company ?? null,
          tags: tagRefs(m.tags?.filter((t) => t === 2)),
        },
      ),
    ),
    ...OTHER_CONTACTS.map(([id, first, last, email, phone, type, company, created]) =>
      record(
        id,
        { ...person(first, last, email, phone, created, created), contact_type: type, employer: company },
        { created_by: ref('user', 14), client: null, company, tags: type === 'Referral Source' ? [ref('tag', 5)] : [] },
      ),
    ),
  ];
  records.companies = COMPANIES.map(([id, name, email, phone, street, city, zip, created]) => {
    const addressId = 130 + (id - 30);
    return record(
      id,
      {
        name,
        email,
        phone_number: phone,
        street,
        street2: null,
        city,
        state: 'CA',
        zipcode: zip,
        country: 'United States',
        address: `${street}, ${city}, CA ${zip}, United States`,
        addresses: [
          {
            id: addressId,
            addressable_id: id,
            addressable_type: 'Company',
            label: 'Primary',
            street,
            street2: null,
            city,
            state: 'CA',
            zipcode: zip,
            country: 'United States',
          },
        ],
        custom_fields: [],
        created_at: at(created),
        updated_at: at(created),
      },
      { created_by: ref('user', 14), tags: [] },
    );
  });
  seedContactInfo(records);
}

/** Addresses, email addresses and phone numbers of the contacts and companies. */
function seedContactInfo(records: Db['records']): void {
  const contacts = records.contacts ?? [];
  records.email_addresses = [
    ...contacts
      .filter((c) => c.attributes.email)
      .map((c, i) =>
        record(
          401 + i,
          { info: c.attributes.email, label: 'Primary', created_at: c.attributes.created_at, updated_at: c.attributes.created_at },
          { informationable: ref('contact', c.id) },
        ),
      ),
    ...COMPANIES.map(([id, , email, , , , , created], i) =>
      record(
        461 + i,
        { info: email, label: 'Primary', created_at: at(created), updated_at: at(created) },
        { informationable: ref('company', id) },
      ),
    ),
  ];
  records.phone_numbers = [
    ...contacts
      .filter((c) => c.attributes.phone)
      .map((c, i) =>
        record(
          501 + i,
          { info: c.attributes.phone, label: 'Mobile', created_at: c.attributes.created_at, updated_at: c.attributes.created_at },
          { informationable: ref('contact', c.id) },
        ),
      ),
    ...COMPANIES.map(([id, , , phone, , , , created], i) =>
      record(
        561 + i,
        { info: phone, label: 'Office', created_at: at(created), updated_at: at(created) },
        { informationable: ref('company', id) },
      ),
    ),
  ];
  // biome-ignore format: one seeded record per line
  const homes: Array<[number, number, string, string, string]> = [
    [101, 8201, '1457 Hillside Blvd', 'Daly City', '94014'],
    [102, 8202, '3320 Fulton St', 'San Francisco', '94118'],
    [103, 8203, '815 Clayton St', 'San Francisco', '94117'],
    [104, 8204, '612 Alcatraz Ave', 'Berkeley', '94703'],
    [105, 8207, '2741 Pacific Ave', 'San Francisco', '94115'],
    [106, 8211, '1200 Embarcadero W', 'Oakland', '94607'],
    [107, 8214, '1903 Lombard St', 'San Francisco', '94123'],
  ];
  records.addresses = [
    ...homes.map(([id, contactId, street, city, zip]) =>
      address(id, ref('contact', contactId), 'Home', street, city, zip, '2024-03-01 10:00'),
    ),
    ...COMPANIES.map(([id, , , , street, city, zip, created]) =>
      address(130 + (id - 30), ref('company', id), 'Primary', street, city, zip, created),
    ),
    address(140, ref('firm', '7'), 'Downtown Office', FIRM.street, FIRM.city, FIRM.postalCode, '2021-02-01 09:00'),
  ];
}

function address(id: number, owner: Ref, label: string, street: string, city: string, zip: string, created: string): StoredRecord {
  const second = `${city}, CA ${zip}`;
  return record(
    id,
    {
      label,
      street,
      street2: null,
      city,
      state: 'CA',
      zipcode: zip,
      country: 'United States',
      full_street: street,
      second_half: second,
      city_state_zip: second,
      full_address: `${street}, ${second}`,
      created_at: at(created),
      updated_at: at(created),
    },
    { addressable: owner },
  );
}

/** The whole seeded state, with each collection's next id above its highest seeded one. */
export function seed(): Db {
  const records: Db['records'] = {};
  seedPeople(records);
  seedFirm(records);
  // each practice area counts its prospects
  for (const area of records.practice_areas ?? []) area.attributes.matter_count = MATTERS.filter((m) => m.area === Number(area.id)).length;
  shiftSeededDates(records, AUTHORED_TODAY);
  const nextId: Record<string, number> = {};
  for (const [key, list] of Object.entries(records)) {
    nextId[key] = Math.max(0, ...list.map((r) => Number(r.id)).filter(Number.isFinite)) + 1;
  }
  return { records, nextId };
}
