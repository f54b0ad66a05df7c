import type { IntegrationRec, SandboxData, TriggerRec } from '../records.js';
import { IDS } from './ids.js';

/** Integrations and the filters (triggers) that decide which calls reach them. */
export function seedIntegrations(): Pick<SandboxData, 'integrations' | 'triggers'> {
  const integrations: IntegrationRec[] = [
    {
      account_id: IDS.harbor,
      company_id: IDS.downtown,
      id: 1402215,
      type: 'Webhooks',
      state: 'active',
      config: {
        pre_call_webhook: [],
        post_call_webhook: ['https://hooks.harlowpike.example/callrail/post-call'],
        call_modified_webhook: ['https://hooks.harlowpike.example/callrail/modified'],
        text_message_webhook: [],
        form_submission_webhook: ['https://hooks.harlowpike.example/callrail/forms'],
      },
      created_at: '2024-02-12T15:20:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      company_id: IDS.downtown,
      id: 1402216,
      type: 'GoogleAnalytics4',
      state: 'active',
      config: { measurement_id: 'G-HB4R8D3NTL', send_first_time_callers_only: false },
      created_at: '2024-03-04T10:02:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      company_id: IDS.westside,
      id: 1402217,
      type: 'Salesforce',
      state: 'disabled',
      config: { instance_url: 'https://harlowpike.my.salesforce.example', object: 'Lead' },
      created_at: '2024-06-21T13:45:00.000-04:00',
    },
    {
      account_id: IDS.summit,
      company_id: IDS.denver,
      id: 1402301,
      type: 'Webhooks',
      state: 'active',
      config: { post_call_webhook: ['https://crm.harlowpike.example/hooks/callrail'] },
      created_at: '2023-01-09T08:00:00.000-07:00',
    },
  ];

  const triggers: TriggerRec[] = [
    {
      account_id: IDS.harbor,
      company_id: IDS.downtown,
      id: 88104,
      integration_id: 1402215,
      call_type: 'all',
      lead_status: null,
      direction: 'inbound',
      min_duration: 30,
      tracker_ids: [],
      created_at: '2024-02-12T15:25:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      company_id: IDS.downtown,
      id: 88105,
      integration_id: 1402216,
      call_type: 'first_call',
      lead_status: 'good_lead',
      direction: 'inbound',
      min_duration: null,
      tracker_ids: [IDS.googleTracker],
      created_at: '2024-03-04T10:10:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      company_id: IDS.westside,
      id: 88106,
      integration_id: 1402217,
      call_type: 'answered',
      lead_status: null,
      direction: 'all',
      min_duration: 60,
      tracker_ids: [],
      created_at: '2024-06-21T13:50:00.000-04:00',
    },
    {
      account_id: IDS.summit,
      company_id: IDS.denver,
      id: 88201,
      integration_id: 1402301,
      call_type: 'all',
      lead_status: null,
      direction: 'inbound',
      min_duration: null,
      tracker_ids: [],
      created_at: '2023-01-09T08:05:00.000-07:00',
    },
  ];

  return { integrations, triggers };
}
