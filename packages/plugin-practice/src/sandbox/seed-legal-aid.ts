import { type Db, insert } from './model.js';

// The UK Legal Aid Agency's tables that Clio serves to every account (the firm in San Francisco has no legal aid work,
// but the lists answer for every account): a few rates of each table and a few expense categories, differing on every
// field the lists filter on, so that each filter has something to narrow. Figures are the LAA's published kind.

export function seedLegalAid(db: Db): void {
  const certificated: Array<
    [
      string,
      string,
      string,
      boolean,
      string,
      boolean,
      string,
      boolean,
      string,
      boolean,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      number,
    ]
  > = [
    // key, activity, sub-category, several hearings, category, change of solicitor, court, sqm, scheme, first solicitor, clients, party, post-transfer, rate type, region, session, user type, fee
    [
      'cc-fam-adv-lon',
      'Advocacy',
      'Final hearing',
      false,
      'Family',
      false,
      'Family Court',
      true,
      'FAS',
      true,
      '1',
      'Applicant',
      '0',
      'fixed',
      'London',
      'Full day',
      'Solicitor',
      510,
    ],
    [
      'cc-fam-adv-nl',
      'Advocacy',
      'Interim hearing',
      true,
      'Family',
      false,
      'Family Court',
      true,
      'FAS',
      false,
      '2',
      'Respondent',
      '1',
      'fixed',
      'Non-London',
      'Half day',
      'Solicitor',
      255,
    ],
    [
      'cc-hou-prep-lon',
      'Preparation',
      'Attendance',
      false,
      'Housing',
      true,
      'County Court',
      false,
      'Standard',
      true,
      '1',
      'Applicant',
      '0',
      'hourly',
      'London',
      'Full day',
      'Counsel',
      74.12,
    ],
    [
      'cc-imm-prep-nl',
      'Preparation',
      'Travel',
      false,
      'Immigration',
      false,
      'Upper Tribunal',
      false,
      'Standard',
      false,
      '3',
      'Applicant',
      '2',
      'hourly',
      'Non-London',
      'Half day',
      'Solicitor',
      66.33,
    ],
  ];
  certificated.forEach((r, i) => {
    const [
      key,
      activity,
      sub,
      several,
      category,
      change,
      court,
      sqm,
      scheme,
      first,
      clients,
      party,
      post,
      rateType,
      region,
      session,
      userType,
      fee,
    ] = r;
    insert(db, '/lauk_civil_certificated_rates', {
      id: 10_001 + i,
      key,
      activity,
      activity_sub_category: sub,
      activity_type: rateType === 'fixed' ? 'Fixed fee' : 'Hourly rate',
      attended_several_hearings_for_multiple_clients: several,
      category_of_law: category,
      change_of_solicitor: change,
      court,
      eligible_for_sqm: sqm,
      exceptional: fee * 2,
      exceptional_warning: null,
      fee,
      fee_scheme: scheme,
      first_conducting_solicitor: first,
      number_of_clients: clients,
      party,
      post_transfer_clients_represented: post,
      rate_type: rateType,
      region,
      session_type: session,
      user_type: userType,
    });
  });

  const controlled: Array<[string, string, string, number, number, string, string, number]> = [
    // key, activity, category, matter type 1, matter type 2, rate type, region, fee
    ['ctl-fam-lon', 'Legal Help', 'Family', 1, 1, 'fixed', 'London', 208],
    ['ctl-fam-nl', 'Legal Help', 'Family', 1, 2, 'fixed', 'Non-London', 181],
    ['ctl-hou-lon', 'Controlled Legal Representation', 'Housing', 2, 3, 'hourly', 'London', 57.51],
  ];
  controlled.forEach(([key, activity, category, type1, type2, rateType, region, fee], i) => {
    insert(db, '/lauk_civil_controlled_rates', {
      id: 10_101 + i,
      key,
      activity,
      activity_type: rateType === 'fixed' ? 'Fixed fee' : 'Hourly rate',
      category_of_law: category,
      exceptional: fee * 3,
      fee,
      fee_scheme: 'Standard',
      rate_type: rateType,
      region,
      // the matter type codes (LAA's "matter type 1" and "matter type 2") a rate applies to
      matter_type_1: type1,
      matter_type_2: type2,
    });
  });

  const criminal: Array<[string, string, string, string, string, string, string, string, string, number]> = [
    // key, activity, category, counsel, court, rate type, region, solicitor type, standard fee category, fee
    ['crim-ps-lon', 'Police station attendance', 'Crime lower', 'None', 'Police station', 'fixed', 'London', 'Duty', '1', 320],
    ['crim-mc-lon', 'Magistrates court', 'Crime lower', 'Junior', 'Magistrates', 'fixed', 'London', 'Own client', '2', 420.5],
    ['crim-mc-nl', 'Magistrates court', 'Crime higher', 'Junior', 'Magistrates', 'hourly', 'Non-London', 'Duty', '1', 52.15],
  ];
  criminal.forEach(([key, activity, category, counsel, court, rateType, region, solicitor, standard, fee], i) => {
    insert(db, '/lauk_criminal_controlled_rates', {
      id: 10_201 + i,
      key,
      activity,
      activity_type: rateType === 'fixed' ? 'Fixed fee' : 'Hourly rate',
      category_of_law: category,
      counsel,
      court,
      exceptional: fee * 3,
      fee,
      fee_scheme: '2022',
      rate_type: rateType,
      region,
      solicitor_type: solicitor,
      standard_fee_category: standard,
    });
  });

  // the expense categories, each with its London and other-region rate (the list answers the one of the region asked)
  const categories: Array<[string, string, boolean, boolean, boolean, number, number]> = [
    ['mileage', 'Mileage', true, true, true, 0.45, 0.45],
    ['travel-time', 'Travel time', true, false, true, 27.6, 25.2],
    ['prison-visit', 'Prison visit', false, true, false, 35, 31],
  ];
  categories.forEach(([key, name, civil, criminalWork, certificatedWork, london, other], i) => {
    insert(db, '/lauk_expense_categories', {
      id: 10_301 + i,
      key,
      name,
      civil,
      criminal: criminalWork,
      certificated: certificatedWork,
      rate: other,
      london_rate: london,
      non_london_rate: other,
    });
  });
  // A legal aid practice area the account carries (no matter of the firm's uses it): list_practice_areas with a
  // matter_id leaves it out when that matter has activities.
  insert(db, '/practice_areas', { id: 1106, name: 'Legal Aid (UK) Family', code: 'LAF', category: 'legal_aid' });
}
