import { atLeastOne, defineOperation, FreeObject, Params, StringEnum, Type, together } from '@portico/core/plugin';
import { BodyId, GenericRecord, One, OptionalId, Paged, RecordId, When } from '../schemas.js';
import { withNumericIds } from '../upstream.js';
import { getOperation, listOperation, namesOf, optionalAll } from './kit.js';

// Tasks: follow-ups with a due date, assigned to users, usually on a matter.

const Task = GenericRecord('A task');
const TASKABLE_TYPES = ['Prospect', 'Contact', 'Company', 'Client'] as const;
const PRIORITIES = ['high', 'medium', 'low'] as const;

export const listTasks = listOperation({
  name: 'list_tasks',
  path: '/tasks',
  upstreamPath: '/tasks',
  summary: 'List follow-up tasks and to-dos, open or done',
  description:
    'Lists tasks, the follow-ups and to-dos of the firm, with name, description, due_date, priority, done and ' +
    'tags. Filter by matter_id, contact_id, company_id, client_id or user_id, or by done = false for what is still ' +
    'open.',
  response: Paged(Task, 'A page of tasks'),
  example: { filter_by: 'user_id', filter_on: '14', sort_by: 'due_date', sort_order: 'asc' },
});

export const getTask = getOperation({
  name: 'get_task',
  path: '/tasks/:id',
  upstreamPath: '/tasks/:id',
  summary: "Get a follow-up task's due date and assignees",
  description:
    'Returns one task (a follow-up, a to-do) with every field: due date, priority, done, assignees, who assigned ' +
    'it, tags, recurrence and record.',
  id: { what: 'Task', from: 'list_tasks', example: '4' },
  response: One(Task, 'The task'),
});

/** What Lawmatics needs for a task (its create endpoint lists every other field as optional). */
const taskCore = {
  name: Type.String({ minLength: 1, description: 'What to do', examples: ['Collect the termination letter'] }),
  description: Type.String({
    description: 'Details',
    examples: ['Ask Kevin to upload the termination letter and the supervisor’s texts.'],
  }),
  due_date: When('Due.', '2024-11-20T17:00:00-08:00'),
};

const taskOptions = {
  priority: Type.Optional(StringEnum(PRIORITIES, { description: 'Priority (Lawmatics default: low)' })),
  done: Type.Optional(Type.Boolean({ description: 'Completed (default false)' })),
  user_ids: Type.Optional(Type.Array(BodyId('User id'), { description: 'Users (list_users) the task is assigned to', examples: [['15']] })),
  assigned_by_id: OptionalId('User who assigns the task', '11'),
  tag_ids: Type.Optional(Type.Array(BodyId('Tag id'), { description: 'Tags (list_tags) to put on the task' })),
  recurrence_rule: Type.Optional(
    FreeObject({
      description:
        'Repeat the task: { type: daily | weekly | monthly | yearly, endDate, frequency (daily), monday…sunday (weekly), ' +
        'monthlyFrequency and dayOfMonth (monthly), month and dayOfMonthYear (yearly) }.',
      examples: [{ type: 'weekly', friday: true, endDate: '08/29/2025' }],
    }),
  ),
};

export const createTask = defineOperation({
  name: 'create_task',
  method: 'POST',
  path: '/tasks',
  summary: 'Create a follow-up task or reminder for a lead, with a due date',
  description:
    'Creates a task (call back, collect documents, chase an unsigned retainer agreement, send the engagement ' +
    'letter) with a due date, usually on a matter (taskable_type Prospect, taskable_id); it reminds the users it ' +
    'is assigned to. Lawmatics needs name, description and due_date; assign it with user_ids.',
  params: Params(
    {
      ...taskCore,
      ...taskOptions,
      taskable_type: Type.Optional(StringEnum(TASKABLE_TYPES, { description: 'Kind of record the task is about' })),
      taskable_id: OptionalId('Id of that record', '5106'),
    },
    { rules: [together('taskable_type', 'taskable_id')] },
  ),
  response: One(Task, 'The new task'),
  // Lawmatics' API reference types these ids as JSON numbers.
  upstream: withNumericIds({ method: 'POST', path: '/tasks' }, ['taskable_id', 'user_ids', 'assigned_by_id', 'tag_ids']),
  example: {
    name: 'Collect the termination letter',
    description: 'Ask Kevin to upload the termination letter and the supervisor’s texts.',
    due_date: '2024-11-20T17:00:00-08:00',
    priority: 'high',
    user_ids: ['15'],
    taskable_type: 'Prospect',
    taskable_id: '5106',
  },
});

const updateFields = { ...optionalAll(taskCore), ...taskOptions };

export const updateTask = defineOperation({
  name: 'update_task',
  method: 'PATCH',
  path: '/tasks/:id',
  summary: 'Update a task or mark it done',
  description:
    'Changes the fields given on a to-do and leaves the others: mark it done, move the due date, reassign it, ' +
    'change priority, tags or recurrence. Lawmatics takes this as a PUT.',
  params: Params({ id: RecordId('Task', 'list_tasks', '5'), ...updateFields }, { rules: [atLeastOne(...namesOf(updateFields))] }),
  response: One(Task, 'The updated task'),
  upstream: withNumericIds({ method: 'PUT', path: '/tasks/:id' }, ['user_ids', 'assigned_by_id', 'tag_ids']),
  example: { id: '5', done: true },
});
