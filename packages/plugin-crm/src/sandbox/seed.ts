import { FIRM, FIRM_PEOPLE, formatPhone, STORY, shiftSeededDates } from '@portico/core/testing/emulator';
import { at, type Db, type Ref, record, ref, type StoredRecord } from './model.js';
import { seedFirm } from './seed-firm.js';

/**
 * The seeded firm: Harlow & Pike LLP (@portico/core/testing's firm; its prospects come from across the Bay Area and
 * San Diego), with its practice areas (personal injury, family, estate planning, criminal defense, immigration,
 * employment), its users, fourteen matters (prospects) and their contacts,
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
}

// biome-ignore format: one seeded record per line
const MATTERS: MatterSeed[] = [
  { id: 5101, first: 'Maria', last: 'Gonzalez', email: 'maria.gonzalez@example.com', phone: '(619) 555-0142', title: 'Gonzalez v. Coastal Freight Lines', blurb: 'Rear-ended by a freight truck on I-5; neck and back injuries, ongoing physical therapy.', status: 'hired', sub: 'Signed - Litigation', area: 61, stage: 306, source: 241, campaign: 281, estimate: 7_500_000, actual: 2_500_000, owner: 12, created: '2024-02-12 10:14', contacted: '2024-11-08 15:30', tags: [1, 2] },
  { id: 5102, first: 'James', last: 'Whitaker', email: 'jwhitaker@example.net', phone: '(858) 555-0117', title: 'Whitaker dissolution and custody', blurb: 'Dissolution after 11 years of marriage; two children, shared custody sought.', status: 'pnc', area: 62, stage: 303, source: 242, campaign: 0, estimate: 1_800_000, actual: 0, owner: 13, created: '2024-03-04 09:02', contacted: '2024-10-29 11:00' },
  { id: 5103, first: 'Linh', last: 'Tran', email: 'linh.tran@example.org', phone: '619-555-0168', title: 'Tran family revocable trust', blurb: 'Revocable living trust, pour-over wills and health care directives for a couple with two rentals.', status: 'pnc', sub: 'Awaiting Documents', area: 63, stage: 304, source: 244, campaign: 282, estimate: 450_000, actual: 0, owner: 11, created: '2024-04-22 14:40', contacted: '2024-11-12 09:15', tags: [4] },
  { id: 5104, first: 'Robert', last: 'Okafor', email: 'rokafor@example.com', phone: '(760) 555-0139', title: 'People v. Okafor (DUI)', blurb: 'First-offense DUI stop in Oceanside; DMV hearing within 10 days of arrest.', status: 'hired', area: 64, stage: 305, source: 243, campaign: 0, estimate: 750_000, actual: 750_000, owner: 12, created: '2024-05-09 08:21', contacted: '2024-11-01 16:45', tags: [3] },
  { id: 5105, first: 'Ana', last: 'Ribeiro', email: 'ana.ribeiro@example.com', phone: '(619) 555-0185', title: 'Ribeiro employment-based green card', blurb: 'H-1B holder seeking EB-2 adjustment of status; employer willing to sponsor.', status: 'pnc', sub: 'Conflict Check', area: 65, stage: 302, source: 244, campaign: 0, estimate: 900_000, actual: 0, owner: 13, created: '2024-06-18 13:05', contacted: '2024-11-14 10:00' },
  { id: 5106, first: STORY.client.first, last: STORY.client.last, email: STORY.client.email, phone: formatPhone(STORY.client.phone), title: STORY.matter, blurb: STORY.blurb, status: 'hired', sub: 'Signed - Litigation', area: 66, stage: 305, source: 241, campaign: 281, estimate: 3_000_000, actual: 325_000, owner: 12, created: '2024-07-02 17:48', contacted: '2024-11-14 16:30' },
  { id: 5107, first: 'Samantha', last: 'Reyes', email: 'sam.reyes@example.com', phone: '(619) 555-0106', title: 'Reyes v. Sunset Grocers', blurb: 'Slip and fall on an unmarked wet floor; fractured wrist.', status: 'hired', sub: 'Signed - Litigation', area: 61, stage: 306, source: 246, campaign: 0, estimate: 4_000_000, actual: 1_500_000, owner: 12, created: '2024-01-08 11:30', contacted: '2024-11-05 14:10', tags: [2] },
  { id: 5108, first: 'Daniel', last: 'Kim', email: 'dkim@example.org', phone: '(858) 555-0151', title: 'Kim premarital agreement', blurb: 'Prenuptial agreement protecting a family business interest; wedding in March.', status: 'hired', area: 62, stage: 305, source: 242, campaign: 0, estimate: 500_000, actual: 500_000, owner: 13, created: '2024-08-19 10:00', contacted: '2024-10-22 13:00' },
  { id: 5109, first: 'Grace', last: 'Liu', email: 'grace.liu@example.com', phone: '(619) 555-0177', title: 'Estate of Howard Liu', blurb: 'Probate of her late father’s estate; house in Clairemont, no will found yet.', status: 'pnc', area: 63, stage: 301, source: 245, campaign: 282, estimate: 1_200_000, actual: 0, owner: 11, created: '2024-09-10 09:45', contacted: '2024-09-12 10:20', tags: [4] },
  { id: 5110, first: 'Thomas', last: 'Becker', email: 'tbecker@example.net', phone: '(760) 555-0124', title: 'Becker motorcycle collision', blurb: 'Lane-splitting collision; comparative fault likely, limited policy.', status: 'lost', sub: 'Declined - No Merit', area: 61, stage: 303, source: 241, campaign: 281, estimate: 2_000_000, actual: 0, owner: 12, created: '2024-03-27 16:12', contacted: '2024-04-10 09:00' },
  { id: 5111, first: 'Fatima', last: 'Haddad', email: 'fatima.haddad@example.org', phone: '(619) 555-0159', title: 'Haddad asylum application', blurb: 'Affirmative asylum filing; one-year deadline in January.', status: 'hired', area: 65, stage: 305, source: 242, campaign: 0, estimate: 800_000, actual: 800_000, owner: 13, created: '2024-06-03 12:25', contacted: '2024-11-13 15:00', tags: [3, 6] },
  { id: 5112, first: 'Michael', last: 'Torres', email: 'mtorres@example.com', phone: '(858) 555-0108', title: 'People v. Torres (petty theft)', blurb: 'Misdemeanor petty theft; diversion may be available.', status: 'lost', area: 64, stage: 302, source: 243, campaign: 0, estimate: 350_000, actual: 0, owner: 12, created: '2024-10-01 19:03', contacted: '2024-10-04 11:30' },
  { id: 5113, first: 'Olivia', last: 'Park', email: 'olivia.park@example.net', phone: '(619) 555-0133', title: 'Park child support modification', blurb: 'Request to modify child support after the other parent’s job change.', status: 'pnc', area: 62, stage: 302, source: 245, campaign: 283, estimate: 300_000, actual: 0, owner: 13, created: '2024-10-21 08:55', contacted: '2024-11-14 16:20' },
  { id: 5114, first: 'Ethan', last: 'Brooks', email: 'ethan.brooks@example.com', phone: '(760) 555-0172', title: 'Brooks dog bite injury', blurb: 'Bitten by a neighbor’s dog; facial scarring, homeowner’s policy in play.', status: 'hired', area: 61, stage: 307, source: 244, campaign: 0, estimate: 2_500_000, actual: 1_000_000, owner: 12, created: '2023-11-15 10:05', contacted: '2024-11-07 10:45', tags: [1] },
];

// [id, first, last, email, phone, contact type, employer/company, created]
// biome-ignore format: one seeded record per line
const OTHER_CONTACTS: Array<[number, string, string, string | null, string | null, string, string | null, string]> = [
  [8215, 'Rachel', 'Stein', 'rstein@steinlegal.example', '(619) 555-0201', 'Opposing Counsel', null, '2024-02-20 10:00'],
  [8216, 'Victor', 'Nguyen', 'victor.nguyen@pacificmutual.example', '(800) 555-0110', 'Insurance Adjuster', 'Pacific Mutual Insurance', '2024-02-22 14:30'],
  [8217, 'Helen', 'Marsh', 'hmarsh@marshlaw.example', '(858) 555-0220', 'Referral Source', null, '2023-06-01 09:00'],
  [8218, 'Carlos', 'Mendoza', 'carlos@baysiderealty.example', '(619) 555-0230', 'Referral Source', 'Bayside Realty Partners', '2023-08-14 12:00'],
  [8219, 'Dr. Anil', 'Kapoor', 'akapoor@harbormedical.example', '(619) 555-0240', 'Expert Witness', 'Harbor Medical Group', '2024-03-18 15:45'],
  [8220, 'Megan', 'Walsh', 'mwalsh@coastalfreight.example', '(619) 555-0250', 'Opposing Counsel', 'Coastal Freight Lines Inc.', '2024-04-02 11:10'],
  [8221, 'Peter', 'Whitaker', null, '(858) 555-0261', 'PNC', null, '2024-03-05 10:00'],
  [8222, 'Hannah', 'Reyes', 'hannah.reyes@example.com', '(619) 555-0107', 'PNC', null, '2024-01-09 09:20'],
  [8223, 'Brian', 'Cho', 'bcho@sdcourts.example', '(619) 555-0270', 'Court Clerk', null, '2024-05-20 08:30'],
  [8224, 'Laura', 'Benson', 'laura.benson@sunsetgrocers.example', '(619) 555-0280', 'PNC', 'Sunset Grocers LLC', '2024-02-01 13:00'],
  [8225, 'Omar', 'Farouk', 'ofarouk@example.org', '(619) 555-0290', 'PNC', null, '2024-07-11 17:00'],
  [8226, 'Jessica', 'Lee', 'jlee@pacificmutual.example', '(800) 555-0111', 'Insurance Adjuster', 'Pacific Mutual Insurance', '2024-08-08 10:40'],
  [8227, 'Mark', 'Delgado', 'mdelgado@example.net', '(760) 555-0300', 'PNC', null, '2024-09-23 12:15'],
  [8228, 'Nina', 'Petrov', 'npetrov@example.com', null, 'PNC', null, '2024-10-15 09:50'],
  [8229, 'George', 'Adams', 'gadams@adamsmediation.example', '(858) 555-0310', 'Referral Source', null, '2023-03-30 16:00'],
  [8230, 'Yuki', 'Tanaka', 'yuki.tanaka@example.org', '(619) 555-0320', 'PNC', null, '2024-11-02 14:05'],
];

// [id, name, email, phone, street, city, zip, created]
// biome-ignore format: one seeded record per line
const COMPANIES: Array<[number, string, string, string, string, string, string, string]> = [
  [31, 'Coastal Freight Lines Inc.', 'legal@coastalfreight.example', '(619) 555-0400', '2200 Harbor Dr', 'San Diego', '92113', '2024-02-15 09:30'],
  [32, 'Pacific Mutual Insurance', 'claims@pacificmutual.example', '(800) 555-0100', '501 W Broadway', 'San Diego', '92101', '2024-02-22 14:00'],
  [33, 'Harbor Medical Group', 'records@harbormedical.example', '(619) 555-0410', '4060 Fourth Ave', 'San Diego', '92103', '2024-03-18 15:00'],
  [34, 'Sunset Grocers LLC', 'risk@sunsetgrocers.example', '(619) 555-0420', '3150 Rosecrans St', 'San Diego', '92110', '2024-01-10 10:00'],
  [35, 'Bayside Realty Partners', 'office@baysiderealty.example', '(858) 555-0430', '7825 Fay Ave', 'La Jolla', '92037', '2023-08-14 11:00'],
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
        { ...person(m.first, m.last, m.email, m.phone, m.created, m.contacted), contact_type: m.status === 'hired' ? 'Client' : 'PNC' },
        {
          created_by: ref('user', 15),
          client: m.status === 'hired' ? `${m.first} ${m.last}` : null,
          company: null,
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
    [101, 8201, '1457 Grove St', 'Chula Vista', '91910'],
    [102, 8202, '3320 Mission Blvd', 'San Diego', '92109'],
    [103, 8203, '8915 Gold Coast Dr', 'San Diego', '92126'],
    [104, 8204, '612 N Coast Hwy', 'Oceanside', '92054'],
    [105, 8207, '2741 Ocean View Blvd', 'San Diego', '92113'],
    [106, 8211, '455 E Main St', 'El Cajon', '92020'],
    [107, 8214, '1903 Rancho Santa Fe Rd', 'San Marcos', '92078'],
  ];
  records.addresses = [
    ...homes.map(([id, contactId, street, city, zip]) =>
      address(id, ref('contact', contactId), 'Home', street, city, zip, '2024-03-01 10:00'),
    ),
    ...COMPANIES.map(([id, , , , street, city, zip, created]) =>
      address(130 + (id - 30), ref('company', id), 'Primary', street, city, zip, created),
    ),
    address(140, ref('firm', '7'), 'Downtown Office', '750 B St, Suite 2100', 'San Diego', '92101', '2021-02-01 09:00'),
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
  shiftSeededDates(records, AUTHORED_TODAY);
  const nextId: Record<string, number> = {};
  for (const [key, list] of Object.entries(records)) {
    nextId[key] = Math.max(0, ...list.map((r) => Number(r.id)).filter(Number.isFinite)) + 1;
  }
  return { records, nextId };
}
