import { addDays, today } from '../clock.js';
import type { CompanyRec, FormRec, LeadStatus } from '../records.js';
import type { AccountSetup } from './accounts.js';
import { callersOf } from './calls.js';
import { IDS } from './ids.js';
import { ATTRIBUTION } from './markets.js';
import { between, hexId, pick, type Random, stamp } from './random.js';

/** Form submissions: 14 for the firm, 5 for its estate-planning line, each from one of the firm's clients or leads. */
export function seedForms(random: Random, { companies, tags }: AccountSetup): FormRec[] {
  const forms: FormRec[] = [];
  const formPlan: Array<{ account: string; count: number }> = [
    { account: IDS.harbor, count: 14 },
    { account: IDS.summit, count: 5 },
  ];
  for (const { account, count } of formPlan) {
    const accountCompanies = companies.filter((c) => c.account_id === account && c.status === 'active');
    const accountTags = tags.filter((t) => t.account_id === account && t.status === 'enabled');
    const people = callersOf(account);
    const emailsSeen = new Set<string>();
    for (let i = 0; i < count; i++) {
      const company = accountCompanies[i % accountCompanies.length] as CompanyRec;
      const daysAgo = Math.floor((i * 75) / count) + 1;
      const eligible = people.filter((p) => p.sinceDaysAgo >= daysAgo);
      const person = eligible[(i * 3 + 5) % eligible.length] as (typeof eligible)[number];
      const email = person.email;
      const source = pick(['Google Ads', 'Organic', 'Facebook', 'Direct'], random);
      const attribution = ATTRIBUTION[source] as (typeof ATTRIBUTION)[string];
      const booking = i % 3 !== 2;
      const formPath = booking ? '/book-appointment' : '/contact';
      const date = addDays(today(), -daysAgo);
      const submitted = stamp(date, between(7 * 3600, 22 * 3600, random), company.time_zone);
      const leadRoll = random();
      const lead_status: LeadStatus = leadRoll < 0.5 ? 'good_lead' : leadRoll < 0.7 ? 'not_a_lead' : null;
      const phone = person.phone;
      forms.push({
        account_id: account,
        company_id: company.id,
        id: account === IDS.harbor && i === 0 ? IDS.firstForm : hexId('FOR', `form-${account}-${i}`),
        person_id: lead_status === 'good_lead' || i % 4 === 0 ? hexId('PER', `person-${account}-${i}`) : null,
        custom_form_id: account === IDS.harbor ? (booking ? 7731 : 7732) : booking ? 8801 : 8802,
        form_name: booking ? (account === IDS.harbor ? 'Book a Consultation' : 'Request a Trust Review') : 'Contact Us',
        form_url: `https://www.${company.domain}${formPath}`,
        landing_page_url: `https://www.${company.domain}${pick(['/', '/free-consultation', '/services'], random)}`,
        referrer: attribution.referrer,
        submitted_at: submitted,
        created_at: submitted,
        first_form: !emailsSeen.has(email),
        customer_name: person.name,
        customer_phone_number: phone,
        customer_email: email,
        form_data: {
          name: person.name,
          email,
          phone,
          message: booking
            ? account === IDS.harbor
              ? 'I would like a consultation about my case.'
              : 'We would like our living trust reviewed.'
            : 'Do you offer free consultations?',
        },
        source,
        medium: attribution.medium,
        campaign: pick(attribution.campaigns, random),
        keywords: pick(attribution.keywords, random),
        lead_status,
        previously_good_lead: lead_status === 'not_a_lead' && i % 2 === 0,
        tag_ids: random() < 0.35 ? [pick(accountTags, random).id] : [],
      });
      emailsSeen.add(email);
    }
  }

  return forms;
}
