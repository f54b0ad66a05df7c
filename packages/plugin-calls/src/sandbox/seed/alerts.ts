import type { NotificationRec, SandboxData, SummaryEmailRec, UserRec } from '../records.js';
import { IDS } from './ids.js';
import { hexId } from './random.js';

/** Notifications and summary emails: who is told of what, and how often. */
export function seedAlerts(users: readonly UserRec[]): Pick<SandboxData, 'notifications' | 'summaryEmails'> {
  const harborUsers = users.filter((u) => u.account_id === IDS.harbor);
  const notifications: NotificationRec[] = [
    {
      account_id: IDS.harbor,
      id: 31001,
      user_id: IDS.firstUser,
      company_id: null,
      tracker_id: null,
      alert_type: 'email',
      call_enabled: true,
      sms_enabled: true,
      form_submission_enabled: true,
      created_at: '2023-02-08T09:00:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 31002,
      user_id: (harborUsers[1] as UserRec).id,
      company_id: IDS.downtown,
      tracker_id: null,
      alert_type: 'push',
      call_enabled: true,
      sms_enabled: false,
      form_submission_enabled: false,
      created_at: '2023-05-11T12:30:00.000-04:00',
    },
    {
      account_id: IDS.harbor,
      id: 31003,
      user_id: (harborUsers[2] as UserRec).id,
      company_id: IDS.westside,
      tracker_id: hexId('TRK', `tracker-${IDS.harbor}-3`),
      alert_type: 'sms',
      call_enabled: true,
      sms_enabled: true,
      form_submission_enabled: false,
      created_at: '2023-10-03T08:15:00.000-04:00',
    },
    {
      account_id: IDS.summit,
      id: 31101,
      user_id: (users[4] as UserRec).id,
      company_id: IDS.denver,
      tracker_id: null,
      alert_type: 'email',
      call_enabled: true,
      sms_enabled: false,
      form_submission_enabled: true,
      created_at: '2022-11-04T10:00:00.000-06:00',
    },
  ];

  const summaryEmails: SummaryEmailRec[] = [
    {
      account_id: IDS.harbor,
      id: 55021,
      user_id: IDS.firstUser,
      company_id: null,
      frequency: 'weekly',
      summary_statistics: ['total_calls', 'missed_calls', 'first_time_callers', 'leads'],
      created_at: '2023-02-10T09:00:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 55022,
      user_id: (harborUsers[1] as UserRec).id,
      company_id: IDS.downtown,
      frequency: 'daily',
      summary_statistics: ['total_calls', 'missed_calls'],
      created_at: '2023-05-12T09:00:00.000-04:00',
    },
    {
      account_id: IDS.harbor,
      id: 55023,
      user_id: (harborUsers[3] as UserRec).id,
      company_id: null,
      frequency: 'monthly',
      summary_statistics: ['total_calls', 'answered_calls', 'average_duration', 'leads'],
      created_at: '2024-01-02T09:00:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 55024,
      user_id: (harborUsers[2] as UserRec).id,
      company_id: IDS.westside,
      frequency: 'weekly',
      summary_statistics: ['total_calls', 'leads'],
      created_at: '2024-04-08T09:00:00.000-04:00',
    },
    {
      account_id: IDS.summit,
      id: 55101,
      user_id: (users[4] as UserRec).id,
      company_id: null,
      frequency: 'weekly',
      summary_statistics: ['total_calls', 'leads'],
      created_at: '2022-11-06T09:00:00.000-06:00',
    },
  ];

  return { notifications, summaryEmails };
}
