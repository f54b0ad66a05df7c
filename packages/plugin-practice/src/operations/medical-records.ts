import { StringEnum } from '@portico/core/plugin';
import { Bool, Day, Int, List, Moment, Num, Text } from '../schemas.js';
import { family, omit } from './kit/rows.js';

// Medical records (personal injury): the requests for a client's medical records and bills from a provider that
// treated them, and the records and bills received.

const requestBody = {
  bills_follow_up_date: Moment('Bills follow up date'),
  bills_request_date: Moment('Bills request date'),
  bills_status: StringEnum(['not_yet_requested', 'requested', 'received', 'incomplete', 'certified'], { description: 'Bills status.' }),
  description: Text('Description.'),
  in_treatment: Bool('Whether the client is still in treatment.'),
  matter_id: Int('The matter (ids from list_matters).'),
  medical_bills: List(
    'Medical bills, as [{ "adjustment": <number>, "amount": <number>, "balance": <number>, "bill_date": <date>, "bill_received_date": <date>, "document_id": <integer>, "name": <string>, "mark_balance_type_as": "lien" | "outstanding_balance" | "neither", "payers": […] }].',
  ),
  medical_provider_id: Int('The medical provider (a contact).'),
  medical_records: List('Medical records, as [{ "document_id": <integer>, "end_date": <date-time>, "start_date": <date-time> }].'),
  records_follow_up_date: Moment('Records follow up date'),
  records_request_date: Moment('Records request date'),
  records_status: StringEnum(['not_yet_requested', 'requested', 'received', 'incomplete', 'certified'], {
    description: 'Records status.',
  }),
  treatment_end_date: Moment('Treatment end date'),
  treatment_start_date: Moment('Treatment start date'),
};

export const medicalRecords = family([
  {
    key: 'medical_records_details',
    path: '/medical_records_details',
    clio: '/medical_records_details',
    record: ['medical_records_request', 'medical_records_details'],
    summaries: {
      list: 'List medical records requests to providers (personal injury)',
      get: 'Get a medical records request with its records and bills',
      create: 'Request medical records and bills from a provider for a matter',
      update: 'Change a medical records request or its follow-up dates',
      delete: 'Delete a medical records request',
    },
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Medical records requests: what a provider treated and the records and bills asked for (personal injury).',
    fields:
      'id,description,records_status,bills_status,in_treatment,treatment_start_date,medical_provider{id,name},matter{id,display_number}',
    order: null,
    filters: {
      treatment_end_date: Moment('Only medical records details with treatment date on or before this time'),
      treatment_start_date: Moment('Only medical records details with treatment date on or after this time'),
    },
    body: requestBody,
    // A request stays on the matter it was made for.
    updateBody: omit(requestBody, 'matter_id'),
    required: ['bills_status', 'in_treatment', 'matter_id', 'medical_provider_id', 'records_status'],
    text: {
      list: 'Lists medical records requests on personal injury matters: the provider, treatment dates, and the status of the records and medical bills asked for. Filter by treatment_start_date and treatment_end_date.',
      get: 'Returns one medical records request with its provider, treatment dates and statuses; the id comes from list_medical_records_details. Ask for medical_records and medical_bills in fields for the records and bills received.',
      create:
        'Creates a medical records request for a matter: matter_id, medical_provider_id (a contact), in_treatment, records_status and bills_status are required. medical_records and medical_bills record what came back.',
      update:
        'Changes a medical records request (id from list_medical_records_details): its statuses, request and follow-up dates, records and bills.',
      delete: 'Deletes a medical records request from its matter (id from list_medical_records_details). Answers 204 with no body.',
    },
  },
  {
    key: 'medical_records',
    path: '/medical_records',
    clio: '/medical_records',
    record: ['medical_record', 'medical_records'],
    summaries: {
      update: 'Change the dates of a medical record received from a provider',
      delete: 'Delete a medical record from a records request',
    },
    verbs: ['update', 'delete'],
    about: 'Medical records within a medical records request.',
    fields: 'id,start_date,end_date',
    body: {
      end_date: Moment('End date'),
      start_date: Moment('Start date'),
    },
    text: {
      update:
        'Changes the start and end dates of one medical record of a request (id from get_medical_records_request with medical_records in fields).',
      delete:
        'Deletes one medical record received for a request (id from get_medical_records_request with medical_records in fields). Answers 204 with no body.',
    },
  },
  {
    key: 'medical_bills',
    path: '/medical_bills',
    clio: '/medical_bills',
    record: ['medical_bill', 'medical_bills'],
    summaries: {
      update: 'Change a medical bill received from a provider',
      delete: 'Delete a medical bill from a records request',
    },
    verbs: ['update', 'delete'],
    about: 'Medical bills within a medical records request.',
    fields: 'id,name,amount,balance,bill_date',
    body: {
      adjustment: Num('Adjustment.'),
      amount: Num('Amount.'),
      balance: Num('Balance.'),
      bill_date: Day('Bill date'),
      bill_received_date: Day('Bill received date'),
      mark_balance_type_as: StringEnum(['lien', 'outstanding_balance', 'neither'], { description: 'Mark balance type as.' }),
      name: Text('Name.'),
      payers: List('Payers, as [{ "amount": <number>, "holder_id": <integer>, "mark_as_lien": <boolean> }].'),
    },
    text: {
      update:
        'Changes one medical bill of a records request (id from get_medical_records_request with medical_bills in fields): its amount, adjustment, balance, dates or payers. These are providers’ bills for treatment, not the firm’s client bills.',
      delete:
        'Deletes one provider’s medical bill of a records request (id from get_medical_records_request with medical_bills in fields). Answers 204 with no body.',
    },
  },
]);
