import type { CallerIdRec } from '../records.js';
import { IDS } from './ids.js';
import { hexId } from './random.js';

/** The verified numbers outbound calls may show. */
export function seedCallerIds(): CallerIdRec[] {
  const callerIds: CallerIdRec[] = [
    {
      account_id: IDS.harbor,
      company_id: IDS.downtown,
      id: IDS.firstCallerId,
      phone_number: '+14155550100',
      name: 'Harlow & Pike Main Line',
      status: 'verified',
      created_at: '2023-02-09T11:00:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      company_id: IDS.westside,
      id: hexId('CID', 'caller-2'),
      phone_number: '+15105550100',
      name: 'Oakland Front Desk',
      status: 'verified',
      created_at: '2023-09-20T10:30:00.000-04:00',
    },
    {
      account_id: IDS.harbor,
      company_id: IDS.westside,
      id: hexId('CID', 'caller-3'),
      phone_number: '+14155550101',
      name: 'Margaret Harlow Mobile',
      status: 'pending',
      created_at: '2025-06-10T16:05:00.000-04:00',
    },
    {
      account_id: IDS.summit,
      company_id: IDS.denver,
      id: hexId('CID', 'caller-4'),
      phone_number: '+16285550100',
      name: 'Estate Planning Office',
      status: 'verified',
      created_at: '2022-11-05T09:00:00.000-06:00',
    },
  ];

  return callerIds;
}
